// The Accept header as kube-apiserver reads it (github.com/munnerz/goautoneg,
// ParseAccept). It is looser than RFC 9110, and a client can notice:
// - clauses split on ",", parameters on ";", each trimmed of spaces only;
// - type and subtype are compared case-sensitively;
// - "*" alone means "*/*"; a range without "/" is dropped;
// - q is parsed as a 32-bit float, 0 when unparsable, and q=0 does NOT
//   exclude a type (kube never checks q beyond ordering);
// - parameter values keep their quotes.
// Clauses are ordered by q (higher first), then concrete types before
// wildcards, using an insertion sort with goautoneg's comparison, which is
// what Go's sort.Sort does for the few clauses a header has.

export interface AcceptClause {
  readonly type: string;
  readonly subType: string;
  readonly q: number;
  readonly params: Readonly<Record<string, string>>;
}

const trimSpaces = (s: string) => s.replace(/^ +| +$/g, '');

/** strconv.ParseFloat(s, 32) for the forms a q-value takes; 0 on error, as goautoneg ignores the error. */
function parseQ(s: string): number {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Math.fround(Number(s));
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  return 0;
}

function less(a: AcceptClause, b: AcceptClause): boolean {
  if (a.q > b.q) return true;
  if (a.type !== '*' && b.type === '*') return true;
  if (a.subType !== '*' && b.subType === '*') return true;
  return false;
}

export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const rawPart of header.split(',')) {
    const part = trimSpaces(rawPart);
    const [range, ...paramParts] = part.split(';');
    const sp = range!.split('/');
    const type = trimSpaces(sp[0]!);
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = trimSpaces(sp[1]!);
    else continue;
    let q = 1;
    const params: Record<string, string> = {};
    for (const param of paramParts) {
      const eq = param.indexOf('=');
      if (eq === -1) continue;
      const token = trimSpaces(param.slice(0, eq));
      if (token === 'q') q = parseQ(param.slice(eq + 1));
      else params[token] = trimSpaces(param.slice(eq + 1));
    }
    clauses.push({ type, subType, q, params });
  }
  // Go's insertionSort: move each clause left while it is "less" than its left neighbour.
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j]!, clauses[j - 1]!); j--) {
      [clauses[j], clauses[j - 1]] = [clauses[j - 1]!, clauses[j]!];
    }
  }
  return clauses;
}
