// client-go's retry.RetryOnConflict: run a read-modify-write again when the
// server answers 409 Conflict, a bounded number of times.

import { isConflict } from '../client/api-error';

export async function retryOnConflict<T>(attempt: () => Promise<T>, times = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isConflict(err) || i >= times) throw err;
    }
  }
}
