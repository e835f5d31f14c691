// Reconcilers as ordered lists of small steps (kcp's style): each step looks
// at the state gathered so far, may act through the API, and either lets the
// next step run or ends the reconcile (optionally asking to be run again
// later). Steps are plain functions, so each can be tested on its own.

export type StepOutcome = void | { readonly stop: true; readonly requeueAfterMs?: number };

export interface Step<S> {
  readonly name: string;
  run(state: S): Promise<StepOutcome>;
}

export const stop = (requeueAfterMs?: number): StepOutcome => ({ stop: true, requeueAfterMs });

/** Runs the steps in order until one stops; returns the requeue delay asked for, if any. */
export async function runSteps<S>(steps: readonly Step<S>[], state: S): Promise<{ requeueAfterMs?: number; stoppedAt?: string }> {
  for (const step of steps) {
    const outcome = await step.run(state);
    if (outcome && outcome.stop) return { requeueAfterMs: outcome.requeueAfterMs, stoppedAt: step.name };
  }
  return {};
}
