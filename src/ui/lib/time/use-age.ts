// The age of an object as kubectl prints it ("42s", "5m10s", "3h"), kept
// current by the one shared ticker. A component re-renders only when its text
// changes (useSyncExternalStore compares the strings): an age past ten minutes
// changes once a minute, and only the rows on screen have an age at all.

import { useSyncExternalStore } from 'react';
import { askWorker } from '../../../platform/browser/worker-client';
import { humanDuration } from '../../../core/kinds/builtin/common/human-duration';
import { Ticker } from './ticker';

/** How often the server clock's offset is asked again while ages are shown (it moves only from Settings). */
const OFFSET_REFRESH_MS = 15_000;

let lastOffsetCheck = -Infinity;

function learnOffset(ticker: Ticker): void {
  const now = Date.now();
  if (now - lastOffsetCheck < OFFSET_REFRESH_MS) return;
  lastOffsetCheck = now;
  askWorker('kubetab:clock:get', {}, 5_000).then(
    (clock) => ticker.setOffset(clock.offsetMs),
    () => {
      // No worker to ask (or a moment of hand-over): this computer's clock.
    },
  );
}

// A moved clock is noticed within OFFSET_REFRESH_MS while ages are on screen.
export const ageTicker = new Ticker(1000, undefined, learnOffset);

/** Text of the age of something created at `timestamp` (RFC 3339), as the server's Age column prints it. */
export function ageText(timestamp: string, now: number): string {
  const created = Date.parse(timestamp);
  return Number.isNaN(created) ? '<unknown>' : humanDuration(now - created);
}

/** The age since `timestamp`, ticking; `fallback` when there is no timestamp. */
export function useAge(timestamp: string | undefined, fallback = ''): string {
  return useSyncExternalStore(ageTicker.subscribe, () => (timestamp ? ageText(timestamp, ageTicker.now()) : fallback));
}
