// The label selector lexer of k8s.io/apimachinery (labels/selector.go):
// identifiers run until whitespace or one of the special symbols
// = ! ( ) , > <; symbol runs are cut at the longest operator they start with.
// Keywords ("in", "notin") are recognised here and turned back into
// identifiers by the parser where a value is expected.

export enum Tok {
  Error,
  EndOfString,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

export interface Token {
  readonly tok: Tok;
  readonly literal: string;
}

const LITERALS: ReadonlyMap<string, Tok> = new Map([
  [')', Tok.ClosedPar],
  [',', Tok.Comma],
  ['!', Tok.DoesNotExist],
  ['==', Tok.DoubleEquals],
  ['=', Tok.Equals],
  ['>', Tok.GreaterThan],
  ['in', Tok.In],
  ['<', Tok.LessThan],
  ['!=', Tok.NotEquals],
  ['notin', Tok.NotIn],
  ['(', Tok.OpenPar],
]);

const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecial = (ch: string) => ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';

/** Splits a selector into tokens, ending with EndOfString. */
export function lex(input: string): Token[] {
  // Go's lexer reads bytes and treats a 0 byte as the end of the input.
  const nul = input.indexOf('\0');
  const s = nul === -1 ? input : input.slice(0, nul);
  const tokens: Token[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos]!)) pos++;
    if (pos >= s.length) {
      tokens.push({ tok: Tok.EndOfString, literal: '' });
      return tokens;
    }
    if (isSpecial(s[pos]!)) {
      // Grow the symbol run while it is still an operator, or has not become one yet.
      let buffer = '';
      let last: Token | undefined;
      while (pos < s.length && isSpecial(s[pos]!)) {
        const next = buffer + s[pos]!;
        const tok = LITERALS.get(next);
        if (tok !== undefined) {
          last = { tok, literal: next };
        } else if (last) {
          break;
        }
        buffer = next;
        pos++;
      }
      tokens.push(last ?? { tok: Tok.Error, literal: `error expected: keyword found '${buffer}'` });
      continue;
    }
    const start = pos;
    while (pos < s.length && !isSpecial(s[pos]!) && !isWhitespace(s[pos]!)) pos++;
    const word = s.slice(start, pos);
    const keyword = LITERALS.get(word);
    tokens.push({ tok: keyword ?? Tok.Identifier, literal: word });
  }
}
