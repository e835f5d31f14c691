// A selector that kube would refuse. The message is exactly the text of the
// Go error, because kube-apiserver puts it unchanged into a 400 BadRequest
// Status (handlers/get.go: errors.NewBadRequest(err.Error())).

import { errors, type StatusError } from '../errors/status';

export class SelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }

  /** The 400 BadRequest kube-apiserver answers a list/watch/deletecollection with. */
  toStatusError(): StatusError {
    return errors.badRequest(this.message);
  }
}

export function isSelectorError(err: unknown): err is SelectorError {
  return err instanceof SelectorError;
}
