// For tests that assert what a call throws (a StatusError's code and body, a
// parser's message): the thrown value, or a failure when nothing of that type
// is thrown.

/** The error of the given type that f throws; anything else thrown passes through. */
export function thrownBy<E>(f: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    f();
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(`expected a ${type.name} to be thrown`);
}

/** The message of the error f throws ('no error' when it returns, so an expectation on the text fails readably). */
export function messageThrownBy(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
}

/** The error of the given type that the promise rejects with; anything else passes through. */
export async function rejectionOf<E>(p: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(`expected a ${type.name} rejection`);
}
