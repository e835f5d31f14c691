// Plugins that look at a few kinds only answer every other request
// synchronously, so that the chain does not wait on them (an async
// function's early return still costs the request a promise and a turn of
// the microtask queue per plugin).

import type { AdmissionAttributes, AdmissionContext } from '../types';

/** `run` for the requests `applies` accepts; nothing (synchronously) for the rest. `applies` must not change the request. */
export function onlyWhen(
  applies: (attrs: AdmissionAttributes) => boolean,
  run: (attrs: AdmissionAttributes, ctx: AdmissionContext) => Promise<void>,
): (attrs: AdmissionAttributes, ctx: AdmissionContext) => Promise<void> | undefined {
  return (attrs, ctx) => (applies(attrs) ? run(attrs, ctx) : undefined);
}
