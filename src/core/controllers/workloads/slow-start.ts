// controller.slowStartBatch: a controller that must create many pods sends
// them in batches of 1, 2, 4, 8… (all of a batch at once) and stops at the
// first batch with a failure, so that a quota or admission refusal costs one
// failed request rather than hundreds.

/** controller.SlowStartInitialBatchSize. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

export interface SlowStartResult {
  /** How many calls succeeded. */
  readonly successes: number;
  /** The first error of the batch that failed, if one did. */
  readonly error?: unknown;
}

export async function slowStartBatch(count: number, initialBatchSize: number, fn: () => Promise<void>): Promise<SlowStartResult> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += batch - failed.length;
    if (failed.length > 0) return { successes, error: failed[0]!.reason };
    remaining -= batch;
  }
  return { successes };
}
