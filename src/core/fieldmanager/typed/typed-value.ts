// Turning plain objects into typed values: validation against the schema,
// with kube-apiserver's choice of where duplicate list-map keys are allowed.

import type { Atom } from '../schema/atom';
import { TypedError } from './errors';
import { validateTyped } from './validate';

/** Validates `value` against `root`; throws TypedError with smd's messages. */
export function asTyped(value: unknown, root: Atom, allowDuplicates: boolean): void {
  const errs = validateTyped(value, root, { allowDuplicates });
  if (errs.length > 0) throw new TypedError(errs);
}
