// YAML as kube-apiserver writes it: sigs.k8s.io/yaml turns the JSON into a
// generic map (so every map's keys come out sorted, in go-yaml's "natural"
// order) and go-yaml v2 (libyaml's emitter) writes it. A client sees:
// - keys sorted, numbers inside keys compared by value ("a2" < "a10");
// - block style, two-space indent, sequences under a key not indented;
// - empty maps and lists as {} and [];
// - strings quoted with double quotes when plain text would read back as
//   something else in YAML 1.1 (`"true"`, `"yes"`, `"on"`, `"123"`, `""`,
//   `"1:20"`, and timestamps such as creationTimestamp), in single quotes when
//   plain text is not possible (`'*'`, `'a: b'`, `'- x'`), multi-line text as
//   a literal block (`|`, `|-`, `|+`, `|2`), and anything with tabs or
//   characters YAML cannot show as double-quoted escapes;
// - long plain or quoted text folded at the first space past column 80.
// The rules below follow libyaml's scalar analysis and style choice; the
// document is one mapping, so no "---" or "..." markers are written.

import { yamlNumber } from './go-number';
import { resolvesToNonString } from './yaml-resolve';

const BEST_INDENT = 2;
const BEST_WIDTH = 80;

type Style = 'plain' | 'single' | 'double' | 'literal';

interface ScalarAnalysis {
  multiline: boolean;
  flowPlainAllowed: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

const isBreakCp = (cp: number) => cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
const isBlankCp = (cp: number | undefined) => cp === 0x20 || cp === 0x09;
/** libyaml's is_printable over UTF-8: no C0/C1 controls, no surrogates, no BOM/U+FFFE/U+FFFF, and nothing beyond the BMP. */
const isPrintableCp = (cp: number) =>
  cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

/** yaml_emitter_analyze_scalar. */
function analyze(value: string): ScalarAnalysis {
  if (value.length === 0) {
    return { multiline: false, flowPlainAllowed: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  }
  const cps = codePoints(value);
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let precededByWhitespace = true;
  if (value.startsWith('---') || value.startsWith('...')) {
    blockIndicators = true;
    flowIndicators = true;
  }
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!;
    const ch = String.fromCodePoint(cp);
    const next = cps[i + 1];
    const followedByWhitespace = next === undefined || isBlankCp(next) || isBreakCp(next);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) {
        flowIndicators = true;
        blockIndicators = true;
      } else if (ch === '?' || ch === ':') {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      } else if (ch === '-' && followedByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else if (',?[]{}'.includes(ch)) {
      flowIndicators = true;
    } else if (ch === ':') {
      flowIndicators = true;
      if (followedByWhitespace) blockIndicators = true;
    } else if (ch === '#' && precededByWhitespace) {
      flowIndicators = true;
      blockIndicators = true;
    }
    if (!isPrintableCp(cp)) specialCharacters = true;
    if (cp === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreakCp(cp)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankCp(cp) || isBreakCp(cp) || cp === 0;
  }
  const a: ScalarAnalysis = { multiline: lineBreaks, flowPlainAllowed: true, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
  }
  if (trailingSpace) a.blockAllowed = false;
  if (breakSpace) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
    a.blockAllowed = false;
  }
  if (lineBreaks) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
  }
  if (flowIndicators) a.flowPlainAllowed = false;
  if (blockIndicators) a.blockPlainAllowed = false;
  return a;
}

/** The style go-yaml asks for (encoder stringv), then the one libyaml can honour (select_scalar_style). */
function selectStyle(value: string, requested: Style, a: ScalarAnalysis, simpleKey: boolean): Style {
  let style = requested;
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain') {
    if (!a.blockPlainAllowed) style = 'single';
    if (value.length === 0 && simpleKey) style = 'single';
  }
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
  return style;
}

function requestedStringStyle(s: string): Style {
  if (s.includes('\n')) return 'literal';
  return resolvesToNonString(s) ? 'double' : 'plain';
}

/** go-yaml v2's map key order: digit runs compared as numbers, letters after other characters unless a digit run precedes. */
export function compareYamlKeys(a: string, b: string): number {
  if (a === b) return 0;
  return yamlKeyLess(a, b) ? -1 : 1;
}

const isLetter = (cp: number) => /\p{L}/u.test(String.fromCodePoint(cp));
const isDigitCp = (cp: number) => /\p{Nd}/u.test(String.fromCodePoint(cp));

function yamlKeyLess(as: string, bs: string): boolean {
  const ar = codePoints(as);
  const br = codePoints(bs);
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = isDigitCp(ar[i]!);
      continue;
    }
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return digits ? al : bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === 0x30 || br[i] === 0x30) {
      for (let j = i - 1; j >= 0 && isDigitCp(ar[j]!); j--) {
        if (ar[j] !== 0x30) {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigitCp(ar[ai]!); ai++) an = an * 10n + BigInt(ar[ai]! - 0x30);
    let bi = i;
    for (; bi < br.length && isDigitCp(br[bi]!); bi++) bn = bn * 10n + BigInt(br[bi]! - 0x30);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

/** The short escapes libyaml writes in double-quoted scalars (\0, \a, … \N, \_, \L, \P). */
const DOUBLE_QUOTED_ESCAPES: Record<number, string> = {
  0x00: '0',
  0x07: 'a',
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0b: 'v',
  0x0c: 'f',
  0x0d: 'r',
  0x1b: 'e',
  0x22: '"',
  0x5c: '\\',
  0x85: 'N',
  0xa0: '_',
  0x2028: 'L',
  0x2029: 'P',
};

class Emitter {
  out = '';
  private column = 0;
  private whitespace = true;
  private indention = true;
  private indent = -1;
  private readonly indents: number[] = [];

  private put(s: string): void {
    this.out += s;
    this.column += 1;
  }

  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }

  private writeChar(ch: string): void {
    this.out += ch;
    this.column += 1;
  }

  /** A line break inside a scalar (libyaml's WRITE_BREAK): \n as the emitter's break, others as they are. */
  private writeBreak(ch: string): void {
    if (ch === '\n') this.putBreak();
    else {
      this.out += ch;
      this.column = 0;
    }
    this.indention = true;
  }

  /** After a flow scalar: what follows is neither at a whitespace nor at an indentation. */
  private endFlowScalar(): void {
    this.whitespace = false;
    this.indention = false;
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  private popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    for (const ch of indicator) this.writeChar(ch);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  node(value: unknown, context: { mapping: boolean; simpleKey: boolean }): void {
    if (Array.isArray(value)) return this.sequence(value.map((v) => (v === undefined || typeof v === 'function' ? null : v)), context.mapping);
    if (value !== null && typeof value === 'object') {
      const obj = (typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON: () => unknown }).toJSON() : value) as unknown;
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return this.node(obj, context);
      return this.mapping(obj as Record<string, unknown>);
    }
    this.scalarValue(value, context.simpleKey);
  }

  private scalarValue(value: unknown, simpleKey: boolean): void {
    if (value === null || value === undefined) return this.scalar('null', 'plain', simpleKey);
    if (typeof value === 'boolean') return this.scalar(value ? 'true' : 'false', 'plain', simpleKey);
    if (typeof value === 'number') {
      if (Number.isNaN(value)) return this.scalar('.nan', 'plain', simpleKey);
      if (!Number.isFinite(value)) return this.scalar(value > 0 ? '.inf' : '-.inf', 'plain', simpleKey);
      return this.scalar(yamlNumber(value), 'plain', simpleKey);
    }
    if (typeof value === 'bigint') return this.scalar(value.toString(), 'plain', simpleKey);
    const s = String(value);
    this.scalar(s, requestedStringStyle(s), simpleKey);
  }

  private scalar(value: string, requested: Style, simpleKey: boolean): void {
    const a = analyze(value);
    const style = selectStyle(value, requested, a, simpleKey);
    this.increaseIndent(true, false);
    switch (style) {
      case 'plain':
        this.writePlain(value, !simpleKey);
        break;
      case 'single':
        this.writeSingleQuoted(value, !simpleKey);
        break;
      case 'double':
        this.writeDoubleQuoted(value, !simpleKey);
        break;
      case 'literal':
        this.writeLiteral(value);
        break;
    }
    this.popIndent();
  }

  /** A key fits on its line when it is one line and at most 128 bytes (check_simple_key). */
  private isSimpleKey(key: string): boolean {
    return !analyze(key).multiline && new TextEncoder().encode(key).length <= 128;
  }

  private mapping(obj: Record<string, unknown>): void {
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined && typeof obj[k] !== 'function')
      .sort(compareYamlKeys);
    if (keys.length === 0) {
      this.writeIndicator('{', true, true, false);
      this.writeIndicator('}', false, false, false);
      return;
    }
    this.increaseIndent(false, false);
    for (const key of keys) {
      this.writeIndent();
      if (this.isSimpleKey(key)) {
        this.scalarValue(key, true);
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.scalarValue(key, false);
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.node(obj[key], { mapping: true, simpleKey: false });
    }
    this.popIndent();
  }

  private sequence(items: unknown[], mappingContext: boolean): void {
    if (items.length === 0) {
      this.writeIndicator('[', true, true, false);
      this.writeIndicator(']', false, false, false);
      return;
    }
    this.increaseIndent(false, mappingContext && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.node(item, { mapping: false, simpleKey: false });
    }
    this.popIndent();
  }

  private writePlain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace && value.length > 0) this.put(' ');
    const chars = [...value];
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && chars[i + 1] !== ' ') this.writeIndent();
        else this.writeChar(ch);
        spaces = true;
      } else {
        this.writeChar(ch);
        this.indention = false;
        spaces = false;
      }
    }
    this.endFlowScalar();
  }

  private writeSingleQuoted(value: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    const chars = [...value];
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      const cp = ch.codePointAt(0)!;
      if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < chars.length - 1 && chars[i + 1] !== ' ') this.writeIndent();
        else this.writeChar(ch);
        spaces = true;
      } else if (isBreakCp(cp)) {
        if (!breaks && ch === '\n') this.putBreak();
        this.writeBreak(ch);
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (ch === "'") this.put("'");
        this.writeChar(ch);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.endFlowScalar();
  }

  private writeDoubleQuoted(value: string, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    const chars = [...value];
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      const cp = ch.codePointAt(0)!;
      if (!isPrintableCp(cp) || cp === 0xfeff || isBreakCp(cp) || ch === '"' || ch === '\\') {
        this.put('\\');
        const short = DOUBLE_QUOTED_ESCAPES[cp];
        if (short !== undefined) this.put(short);
        else {
          const [prefix, width] = cp <= 0xff ? ['x', 2] : cp <= 0xffff ? ['u', 4] : ['U', 8];
          this.put(prefix);
          for (const d of cp.toString(16).toUpperCase().padStart(width, '0')) this.put(d);
        }
        spaces = false;
      } else if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < chars.length - 1) {
          this.writeIndent();
          if (chars[i + 1] === ' ') this.put('\\');
        } else {
          this.writeChar(ch);
        }
        spaces = true;
      } else {
        this.writeChar(ch);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.endFlowScalar();
  }

  private writeLiteral(value: string): void {
    this.writeIndicator('|', true, false, false);
    const cps = codePoints(value);
    if (cps.length > 0 && (cps[0] === 0x20 || isBreakCp(cps[0]!))) this.writeIndicator(String(BEST_INDENT), false, false, false);
    // Chomping: "-" without a final line break, "+" when the text is one break or ends with two.
    let chomp = '';
    const last = cps[cps.length - 1];
    if (last === undefined || !isBreakCp(last)) chomp = '-';
    else if (cps.length === 1 || isBreakCp(cps[cps.length - 2]!)) chomp = '+';
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const cp of cps) {
      const ch = String.fromCodePoint(cp);
      if (isBreakCp(cp)) {
        this.writeBreak(ch);
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.writeChar(ch);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

/** The body of an application/yaml response (sigs.k8s.io/yaml JSONToYAML of the JSON kube would send). */
export function encodeYaml(value: unknown): string {
  const e = new Emitter();
  e.node(value, { mapping: false, simpleKey: false });
  // Document end: finish the last line.
  e.writeIndent();
  return e.out === '\n' ? '' : e.out.replace(/^\n/, '');
}
