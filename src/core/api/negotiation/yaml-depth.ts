// A bound on how deeply a YAML text nests, checked before the text reaches the
// YAML parser. The parser and everything after it walk the document
// recursively; a few kilobytes of `[[[[…` or `{a: {a: {…` would otherwise run
// the server out of stack or memory. kube's go-yaml has no such limit, but
// Go's JSON decoder, which every YAML body then passes through, stops at
// 10,000 levels; KubeTab stops at 1,000, as for JSON bodies (json-decode.ts).
//
// The depth is counted without parsing: flow collections by their brackets
// outside quotes and comments, block collections by the stack of indentations.
// The count can only over-estimate for odd texts (brackets in block scalars),
// never under-estimate, and no Kubernetes object comes near the bound.

import { MAX_NESTING_DEPTH } from './json-decode';

/** How deep `text` nests (flow brackets plus block indentation levels), counted up to the point it exceeds `limit`. */
export function yamlNestingDepth(text: string, limit = MAX_NESTING_DEPTH): number {
  let deepest = 0;
  let flow = 0;
  const indents: number[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    // Start of a line: its indentation sets the block depth (blank and comment lines do not).
    let indent = 0;
    while (i < n && text[i] === ' ') {
      indent++;
      i++;
    }
    const first = text[i];
    if (flow === 0 && first !== undefined && first !== '\n' && first !== '\r' && first !== '#') {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
    }
    // The rest of the line: brackets outside quotes and comments.
    let quote: string | undefined;
    for (; i < n && text[i] !== '\n'; i++) {
      const c = text[i]!;
      if (quote) {
        if (c === '\\' && quote === '"') i++;
        else if (c === quote) quote = undefined;
        continue;
      }
      // A quote opens a quoted scalar only where a scalar can begin (else it is part of a plain one).
      if ((c === '"' || c === "'") && (i === 0 || ' \t[{,:-'.includes(text[i - 1]!))) quote = c;
      else if (c === '#' && (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t')) {
        while (i < n && text[i] !== '\n') i++;
        break;
      } else if (c === '[' || c === '{') {
        flow++;
        const depth = flow + indents.length;
        if (depth > deepest) deepest = depth;
        if (deepest > limit) return deepest;
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
    // A quoted flow scalar may go on over lines; a plain quote mark in block context ends with its line.
    i++;
    if (indents.length > deepest) deepest = indents.length;
    if (deepest > limit) return deepest;
  }
  return deepest;
}

/** The go-yaml-style error text for a text nested deeper than the bound, or undefined. */
export function yamlDepthError(text: string): string | undefined {
  return yamlNestingDepth(text) > MAX_NESTING_DEPTH ? `yaml: exceeded max depth of ${MAX_NESTING_DEPTH}` : undefined;
}
