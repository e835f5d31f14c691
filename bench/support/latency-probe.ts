// Latency samples of a get and a create, one request in flight and a short
// pause between requests (so the probe measures the server without becoming
// a load of its own: about 100 requests a second), taken from
// KubeTab and from the bare floor in alternating batches (docs/decisions/0133:
// the machine is shared, so neither side gets the quiet minutes), either for a
// fixed number of rounds (the idle server) or until a workload is done (the
// server while pods start).

import { performance } from 'node:perf_hooks';

export type Operation = 'get' | 'create';
export type Side = 'kubetab' | 'floor';

/** One request of an operation against one side; throws on a wrong answer. */
export type Probe = () => Promise<void>;

export type ProbeTargets = Record<Side, Record<Operation, Probe>>;

export type Samples = Record<Side, Record<Operation, number[]>>;

export const emptySamples = (): Samples => ({ kubetab: { get: [], create: [] }, floor: { get: [], create: [] } });

/** Requests per batch: small, so a workload of a few seconds still sees both sides and both operations. */
export const BATCH = 5;
/** The pause after each request (wall time). */
export const GAP_MS = 10;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One round: for each operation, a batch on each side, the first side alternating with the round. */
export async function probeRound(targets: ProbeTargets, samples: Samples, round: number, batch = BATCH, stop: () => boolean = () => false, gapMs = GAP_MS): Promise<void> {
  const order: Side[] = round % 2 === 0 ? ['kubetab', 'floor'] : ['floor', 'kubetab'];
  for (const operation of ['get', 'create'] as const) {
    for (const side of order) {
      for (let i = 0; i < batch; i++) {
        if (stop()) return;
        const started = performance.now();
        await targets[side][operation]();
        samples[side][operation].push(performance.now() - started);
        if (gapMs > 0) await pause(gapMs);
      }
    }
  }
}

/** `rounds` rounds, one after the other. */
export async function probeRounds(targets: ProbeTargets, rounds: number, batch = BATCH): Promise<Samples> {
  const samples = emptySamples();
  for (let round = 0; round < rounds; round++) await probeRound(targets, samples, round, batch);
  return samples;
}

/** Rounds until `done()` (checked before every request, so the probe stops with the workload). */
export function probeUntil(targets: ProbeTargets, done: () => boolean, batch = BATCH): { samples: Samples; finished: Promise<void> } {
  const samples = emptySamples();
  const finished = (async () => {
    for (let round = 0; !done(); round++) await probeRound(targets, samples, round, batch, done);
  })();
  return { samples, finished };
}
