// The label selector grammar kube-apiserver accepts (labels.Parse):
//
//   selector    ::= requirement | requirement "," selector
//   requirement ::= [!] KEY [ set-based | exact-match ]
//   set-based   ::= ("in" | "notin") "(" VALUE ("," VALUE)* ")"
//   exact-match ::= ("=" | "==" | "!=" | ">" | "<") VALUE
//
// Errors carry kube's exact wording, including its quirks: a requirement's
// own errors are prefixed "unable to parse requirement: ", while errors
// between requirements are not; "in"/"notin" are ordinary words where a key
// or value is expected; `()` means the single empty value; set values come
// out sorted and de-duplicated.

import { lex, Tok, type Token } from './label-lexer';
import { BINARY_OPERATORS, labelKeyError, newRequirement, type LabelOperator, type LabelRequirement } from './label-requirement';
import { SelectorError } from './selector-error';

/** Where the parser is: keywords stay keywords only where an operator may follow a key. */
const enum Context {
  KeyAndOperator,
  Values,
}

class Parser {
  private position = 0;
  constructor(
    private readonly items: readonly Token[],
    private readonly path: string | undefined,
  ) {}

  private view(item: Token, context: Context): Token {
    if (context === Context.Values && (item.tok === Tok.In || item.tok === Tok.NotIn)) return { tok: Tok.Identifier, literal: item.literal };
    return item;
  }

  lookahead(context: Context): Token {
    return this.view(this.items[this.position]!, context);
  }

  consume(context: Context): Token {
    return this.view(this.items[this.position++]!, context);
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { tok, literal } = this.lookahead(Context.Values);
      switch (tok) {
        case Tok.Identifier:
        case Tok.DoesNotExist: {
          let r: LabelRequirement;
          try {
            r = this.parseRequirement();
          } catch (err) {
            if (err instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${err.message}`);
            throw err;
          }
          requirements.push(r);
          const next = this.consume(Context.Values);
          if (next.tok === Tok.EndOfString) return requirements;
          if (next.tok === Tok.Comma) {
            const after = this.lookahead(Context.Values);
            if (after.tok !== Tok.Identifier && after.tok !== Tok.DoesNotExist) {
              throw new SelectorError(`found '${after.literal}', expected: identifier after ','`);
            }
            break;
          }
          throw new SelectorError(`found '${next.literal}', expected: ',' or 'end of string'`);
        }
        case Tok.EndOfString:
          return requirements;
        default:
          throw new SelectorError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, [], this.path);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, sortedUnique(values), this.path);
  }

  /** A key, optionally preceded by "!"; a key followed by "," or the end means "exists". */
  private parseKeyAndInferOperator(): { key: string; operator?: LabelOperator } {
    let operator: LabelOperator | undefined;
    let item = this.consume(Context.Values);
    if (item.tok === Tok.DoesNotExist) {
      operator = '!';
      item = this.consume(Context.Values);
    }
    if (item.tok !== Tok.Identifier) throw new SelectorError(`found '${item.literal}', expected: identifier`);
    // Inside the parser the field path is nil, which Go prints as "<nil>".
    const keyErr = labelKeyError(item.literal, this.path ?? '<nil>');
    if (keyErr) throw new SelectorError(keyErr);
    const next = this.lookahead(Context.Values).tok;
    if ((next === Tok.EndOfString || next === Tok.Comma) && operator !== '!') operator = 'exists';
    return { key: item.literal, operator };
  }

  private parseOperator(): LabelOperator {
    const { tok, literal } = this.consume(Context.KeyAndOperator);
    switch (tok) {
      case Tok.In:
        return 'in';
      case Tok.Equals:
        return '=';
      case Tok.DoubleEquals:
        return '==';
      case Tok.GreaterThan:
        return 'gt';
      case Tok.LessThan:
        return 'lt';
      case Tok.NotIn:
        return 'notin';
      case Tok.NotEquals:
        return '!=';
      default:
        throw new SelectorError(`found '${literal}', expected: ${BINARY_OPERATORS.join(', ')}`);
    }
  }

  /** "(" values ")"; "()" is the one empty value. */
  private parseValues(): string[] {
    const open = this.consume(Context.Values);
    if (open.tok !== Tok.OpenPar) throw new SelectorError(`found '${open.literal}' expected: '('`);
    const { tok, literal } = this.lookahead(Context.Values);
    switch (tok) {
      case Tok.Identifier:
      case Tok.Comma: {
        const values = this.parseIdentifiersList();
        if (this.consume(Context.Values).tok !== Tok.ClosedPar) throw new SelectorError(`found '${literal}', expected: ')'`);
        return values;
      }
      case Tok.ClosedPar:
        this.consume(Context.Values);
        return [''];
      default:
        throw new SelectorError(`found '${literal}', expected: ',', ')' or identifier`);
    }
  }

  /** Comma-separated values, where a missing value between commas is the empty string. */
  private parseIdentifiersList(): string[] {
    const values: string[] = [];
    for (;;) {
      const { tok, literal } = this.consume(Context.Values);
      switch (tok) {
        case Tok.Identifier: {
          values.push(literal);
          const next = this.lookahead(Context.Values);
          if (next.tok === Tok.Comma) continue;
          if (next.tok === Tok.ClosedPar) return values;
          throw new SelectorError(`found '${next.literal}', expected: ',' or ')'`);
        }
        case Tok.Comma: {
          if (values.length === 0) values.push('');
          const next = this.lookahead(Context.Values).tok;
          if (next === Tok.ClosedPar) {
            values.push('');
            return values;
          }
          if (next === Tok.Comma) values.push('');
          break;
        }
        default:
          throw new SelectorError(`found '${literal}', expected: ',', or identifier`);
      }
    }
  }

  /** The one value after =, ==, !=, > or <; nothing before "," or the end is the empty value. */
  private parseExactValue(): string[] {
    const next = this.lookahead(Context.Values).tok;
    if (next === Tok.EndOfString || next === Tok.Comma) return [''];
    const { tok, literal } = this.consume(Context.Values);
    if (tok === Tok.Identifier) return [literal];
    throw new SelectorError(`found '${literal}', expected: identifier`);
  }
}

/** kube collects values in a sets.String and lists them sorted. */
function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/** Stable by key, as sort.Sort(ByKey) behaves on the small slices selectors have. */
export function sortByKey(requirements: readonly LabelRequirement[]): LabelRequirement[] {
  return [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * labels.ParseToRequirements: the requirements of a selector string, sorted
 * by key. Throws SelectorError with kube's message. `path` is the optional
 * field path kube puts in front of validation errors.
 */
export function parseLabelRequirements(selector: string, path?: string): LabelRequirement[] {
  return sortByKey(new Parser(lex(selector), path).parse());
}
