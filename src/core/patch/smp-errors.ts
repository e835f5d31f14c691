// The errors of k8s.io/apimachinery's strategicpatch, with their texts
// (k8s.io/apimachinery/pkg/util/mergepatch/errors.go). kube-apiserver maps a
// few of them to 400 or 422 (interpretStrategicMergePatchError) and returns any
// other as a 500 whose message is the text.

import { goSprint, goTypeName } from './go-format';

/** The sentinel errors kube-apiserver recognises by identity. */
export type MergePatchSentinel =
  | 'ErrBadJSONDoc'
  | 'ErrNoListOfLists'
  | 'ErrBadPatchFormatForPrimitiveList'
  | 'ErrBadPatchFormatForRetainKeys'
  | 'ErrBadPatchFormatForSetElementOrderList'
  | 'ErrPatchContentNotMatchRetainKeys'
  | 'ErrUnsupportedStrategicMergePatchFormat';

export const SENTINEL_TEXT: Readonly<Record<MergePatchSentinel, string>> = {
  ErrBadJSONDoc: 'invalid JSON document',
  ErrNoListOfLists: 'lists of lists are not supported',
  ErrBadPatchFormatForPrimitiveList: 'invalid patch format of primitive list',
  ErrBadPatchFormatForRetainKeys: 'invalid patch format of retainKeys',
  ErrBadPatchFormatForSetElementOrderList: 'invalid patch format of setElementOrder list',
  ErrPatchContentNotMatchRetainKeys: "patch content doesn't match retainKeys list",
  ErrUnsupportedStrategicMergePatchFormat: 'strategic merge patch format is not supported',
};

export class StrategicMergePatchError extends Error {
  override readonly name = 'StrategicMergePatchError';
  constructor(
    message: string,
    /** Set for the mergepatch.Err* variables; undefined for formatted errors. */
    readonly sentinel?: MergePatchSentinel,
    /** The Go code panics here instead of returning an error. */
    readonly panicked = false,
  ) {
    super(message);
  }

  static of(sentinel: MergePatchSentinel): StrategicMergePatchError {
    return new StrategicMergePatchError(SENTINEL_TEXT[sentinel], sentinel);
  }
}

/** mergepatch.ErrNoMergeKey */
export function errNoMergeKey(m: Record<string, unknown>, key: string): StrategicMergePatchError {
  return new StrategicMergePatchError(`map: ${goSprint(m)} does not contain declared merge key: ${key}`);
}

/** mergepatch.ErrBadArgType(expected, actual): `expected` is the Go type the code asserted. */
export function errBadArgType(expected: 'map[string]interface {}' | '[]interface {}', actual: unknown): StrategicMergePatchError {
  return new StrategicMergePatchError(`expected a ${expected}, but received a ${goTypeName(actual)}`);
}

/** mergepatch.ErrBadPatchType */
export function errBadPatchType(directive: unknown, m: Record<string, unknown>): StrategicMergePatchError {
  return new StrategicMergePatchError(`unknown patch type: ${goSprint(directive, 's')} in map: ${goSprint(m)}`);
}

/** A Go runtime panic in the library (e.g. hashing a map); kube-apiserver answers 500. */
export function goPanic(message: string): StrategicMergePatchError {
  return new StrategicMergePatchError(message, undefined, true);
}
