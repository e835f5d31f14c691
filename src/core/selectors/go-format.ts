// How kube-apiserver's Go code prints the bits that end up in selector error
// messages: strconv.Quote (%q), a []string printed with %#v, and the
// aggregate of several errors (utilerrors.NewAggregate). Selector messages are
// built here rather than with ../errors/field-errors because that module
// prints slices as []interface {} and quotes with JSON rules.

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/** Go's strconv.Quote: printable runes as is, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) {
      // A lone surrogate is not valid UTF-8; Go prints the replacement rune's escape.
      out += '\\ufffd';
    } else if (PRINTABLE.test(ch)) {
      out += ch;
    } else if (cp < 0x80) {
      out += `\\x${cp.toString(16).padStart(2, '0')}`;
    } else if (cp < 0x10000) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else {
      out += `\\U${cp.toString(16).padStart(8, '0')}`;
    }
  }
  return `${out}"`;
}

/** A []string as %#v prints it: []string{"a", "b"}, []string{} or []string(nil). */
export function goStringSlice(values: readonly string[] | null | undefined): string {
  if (values === null || values === undefined) return '[]string(nil)';
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/** utilerrors.NewAggregate(...).Error(): one message as is, several de-duplicated in brackets. */
export function aggregateMessages(messages: readonly string[]): string {
  const seen: string[] = [];
  for (const m of messages) if (!seen.includes(m)) seen.push(m);
  if (messages.length === 1) return messages[0]!;
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}

/** field.Path.Child for a possibly nil (undefined) path. */
export function childPath(path: string | undefined, child: string): string {
  return path ? `${path}.${child}` : child;
}

/** The UTF-8 length Go's len() reports for a string. */
export function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}
