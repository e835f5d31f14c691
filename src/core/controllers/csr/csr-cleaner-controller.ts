// kube-controller-manager's CSR cleaner (csrcleaner): every hour of cluster
// time it goes through the requests and deletes those done with — issued
// and approved over an hour ago, denied or failed over an hour ago, pending
// (no condition) for over 24 hours, or whose certificate has expired.

import type { KubeObject } from '../../kinds/types';
import { isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { rec, str, timeMs } from '../job/json';
import { CSRS, conditionsOf, isIssued } from './csr-names';
import { pemBlocks } from './der-reader';
import { certificateNotAfter } from './certificate-expiry';

export const CSR_CLEANER_CONTROLLER = 'certificatesigningrequest-cleaner-controller';
export const POLLING_INTERVAL_MS = 3600_000;
const APPROVED_EXPIRATION_MS = 3600_000;
const DENIED_EXPIRATION_MS = 3600_000;
const PENDING_EXPIRATION_MS = 24 * 3600_000;

/** When a condition last changed (the API server fills lastUpdateTime; older objects may only have lastTransitionTime). */
const conditionTime = (c: { lastUpdateTime?: string; lastTransitionTime?: string }): number => timeMs(c.lastUpdateTime) ?? timeMs(c.lastTransitionTime) ?? 0;

/** Whether the cleaner deletes the request now. */
export function isDoneWith(csr: KubeObject, now: number): boolean {
  const conditions = conditionsOf(csr);
  const olderThan = (at: number, ms: number) => at + ms < now;
  if (isIssued(csr) && conditions.some((c) => c.type === 'Approved' && olderThan(conditionTime(c), APPROVED_EXPIRATION_MS))) return true;
  if (conditions.some((c) => c.type === 'Denied' && olderThan(conditionTime(c), DENIED_EXPIRATION_MS))) return true;
  if (conditions.some((c) => c.type === 'Failed' && olderThan(conditionTime(c), DENIED_EXPIRATION_MS))) return true;
  if (conditions.length === 0 && olderThan(timeMs(csr.metadata?.creationTimestamp) ?? now, PENDING_EXPIRATION_MS)) return true;
  if (isIssued(csr) && conditions.some((c) => c.type === 'Approved')) {
    const notAfter = issuedNotAfter(csr);
    if (notAfter !== undefined && notAfter < now) return true;
  }
  return false;
}

function issuedNotAfter(csr: KubeObject): number | undefined {
  try {
    const [der] = pemBlocks(atob(str(rec(csr.status).certificate)), 'CERTIFICATE');
    return der ? certificateNotAfter(der) : undefined;
  } catch {
    return undefined;
  }
}

export function csrCleanerController(ctx: ControllerContext): Controller {
  const csrs = ctx.informers.for(CSRS);
  let timer: ReturnType<typeof ctx.timers.after> | undefined;
  let stopped = false;

  const queue = new WorkQueue(
    CSR_CLEANER_CONTROLLER,
    ctx.activity,
    async (name) => {
      const csr = csrs.get('', name);
      if (!csr || !isDoneWith(csr, ctx.clock.now())) return;
      try {
        await ctx.client.delete(CSRS, '', name, { preconditions: { uid: csr.metadata?.uid } });
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
    },
    ctx.log,
  );

  const poll = () => {
    if (stopped) return;
    for (const csr of csrs.list()) if (isDoneWith(csr, ctx.clock.now())) queue.add(csr.metadata?.name ?? '');
    timer = ctx.timers.after(POLLING_INTERVAL_MS, poll);
  };

  return {
    name: CSR_CLEANER_CONTROLLER,
    start() {
      void csrs.synced.then(poll);
    },
    async stop() {
      stopped = true;
      ctx.timers.cancel(timer);
      await queue.stop();
    },
  };
}
