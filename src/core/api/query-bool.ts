// How kube-apiserver reads a boolean query parameter (watch, allowWatchBookmarks,
// sendInitialEvents, force, orphanDependents, follow, previous, timestamps, …):
// the parameter codec's Convert_Slice_string_To_bool takes the first value and
// reads "0" and "false" in any case as false and ANYTHING else as true — "True"
// (what Python's client sends for True), "yes", even "" — never an error. The
// request-info filter reads `watch` the same way. (`pretty` is the exception:
// kube parses it with strconv.ParseBool; see negotiation/negotiate.ts.)

/** A boolean query parameter as kube's parameter codec reads it; undefined when absent. */
export function queryBool(value: string | null | undefined): boolean | undefined {
  if (value === null || value === undefined) return undefined;
  return !(value === '0' || value.toLowerCase() === 'false');
}

/** The parameter `name` of `query` as a boolean (absent: undefined). */
export function queryBoolParam(query: URLSearchParams, name: string): boolean | undefined {
  return queryBool(query.get(name));
}
