// How kube-apiserver's Go code prints the bits that end up in selector error
// messages: a []string printed with %#v and the aggregate of several errors
// (utilerrors.NewAggregate); strconv.Quote (%q) comes from ../util/go.
// Selector messages are built here rather than with ../errors/field-errors
// because that module prints slices as []interface {} and quotes with JSON
// rules.

import { goQuote } from '../util/go/quote';

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
