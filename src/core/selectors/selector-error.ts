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

/** Runs a selector parser for a request: a SelectorError becomes the 400 kube answers with. */
export function parsedOrBadRequest<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (isSelectorError(err)) throw err.toStatusError();
    throw err;
  }
}

/** Runs a selector parser for authorization, which keeps the parse error's text instead of failing. */
export function parsedOrErrorText<T>(parse: () => T): { selector: T; error?: undefined } | { selector?: undefined; error: string } {
  try {
    return { selector: parse() };
  } catch (err) {
    if (isSelectorError(err)) return { error: err.message };
    throw err;
  }
}
