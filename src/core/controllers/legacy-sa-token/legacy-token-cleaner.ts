// kube-controller-manager's legacy service-account token cleaner
// (LegacyServiceAccountTokenCleanUp, GA and on in 1.32): once a day of
// cluster time it looks at the auto-generated token Secrets (those their
// service account lists in `secrets`) created more than the clean-up period
// ago (--legacy-service-account-token-clean-up-period, one year by default)
// and not used within it (the authenticator's legacy-token-last-used label,
// absent: never used since tracking began), that no pod mounts: the first
// time it labels them kubernetes.io/legacy-token-invalid-since=<today>
// (their token stops authenticating), and once that date is a period old it
// deletes them. Nothing happens before the server has tracked token use for
// a full period (the tracking ConfigMap's `since`).

import type { KubeObject } from '../../kinds/types';
import { isConflict, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { arr, rec, str, timeMs } from '../job/json';
import { podSecretNames } from './pod-secret-names';
import {
  ANN_SERVICE_ACCOUNT_NAME,
  ANN_SERVICE_ACCOUNT_UID,
  CONFIGMAPS,
  dateOf,
  LABEL_INVALID_SINCE,
  LABEL_LAST_USED,
  SECRETS,
  SERVICE_ACCOUNT_TOKEN_TYPE,
  SERVICE_ACCOUNTS,
  TRACKING_CONFIGMAP,
  TRACKING_SINCE_KEY,
} from './token-names';

export const LEGACY_TOKEN_CLEANER_CONTROLLER = 'legacy-serviceaccount-token-cleaner-controller';
/** --legacy-service-account-token-clean-up-period default. */
export const DEFAULT_CLEAN_UP_PERIOD_MS = 365 * 24 * 3600_000;
/** How often the cleaner looks (kube's DefaultCleanerSyncInterval). */
export const CLEANER_SYNC_INTERVAL_MS = 24 * 3600_000;
const PODS = { group: '', version: 'v1', resource: 'pods' };
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface LegacyTokenCleanerOptions {
  readonly cleanUpPeriodMs?: number;
}

export function legacyTokenCleaner(ctx: ControllerContext, options: LegacyTokenCleanerOptions = {}): Controller {
  const period = options.cleanUpPeriodMs ?? DEFAULT_CLEAN_UP_PERIOD_MS;
  const secrets = ctx.informers.for(SECRETS);
  const accounts = ctx.informers.for(SERVICE_ACCOUNTS);
  const pods = ctx.informers.for(PODS);
  let timer: ReturnType<typeof ctx.timers.after> | undefined;
  let stopped = false;

  /**
   * latestPossibleTrackedSinceTime: the day after tracking began (undefined: not known yet — on a
   * fresh cluster the tracking ConfigMap may appear just after the first look, which is then skipped quietly).
   */
  const trackedSince = async (): Promise<number | undefined> => {
    try {
      const cm = await ctx.client.get(CONFIGMAPS, 'kube-system', TRACKING_CONFIGMAP);
      const since = str(rec(cm['data'])[TRACKING_SINCE_KEY]);
      if (!DATE.test(since)) {
        ctx.log(`Getting latest possible tracked_since time: error parsing trackedSince time ${JSON.stringify(since)}`);
        return undefined;
      }
      return Date.parse(`${since}T00:00:00Z`) + 24 * 3600_000;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };

  const accountOf = (secret: KubeObject): KubeObject | undefined => {
    const annotations = secret.metadata?.annotations ?? {};
    const name = annotations[ANN_SERVICE_ACCOUNT_NAME];
    if (!name) return undefined;
    const account = accounts.get(secret.metadata?.namespace ?? '', name);
    const uid = annotations[ANN_SERVICE_ACCOUNT_UID];
    return account && (!uid || uid === account.metadata?.uid) ? account : undefined;
  };

  const evaluate = async (): Promise<void> => {
    const now = ctx.clock.now();
    const since = await trackedSince();
    if (since === undefined) return;
    if (now < since + period) return;
    const preserveCreatedOnOrAfter = now - period;
    const preserveUsedOnOrAfter = dateOf(now - period);
    const mounted = new Map<string, Set<string>>();
    const mountedIn = (namespace: string): Set<string> => {
      let names = mounted.get(namespace);
      if (!names) {
        names = new Set();
        for (const pod of pods.list(namespace)) for (const n of podSecretNames(pod)) names.add(n);
        mounted.set(namespace, names);
      }
      return names;
    };
    for (const secret of secrets.list()) {
      if (secret['type'] !== SERVICE_ACCOUNT_TOKEN_TYPE || secret.metadata?.deletionTimestamp) continue;
      if (!((timeMs(secret.metadata?.creationTimestamp) ?? now) < preserveCreatedOnOrAfter)) continue;
      const labels = secret.metadata?.labels ?? {};
      const lastUsed = labels[LABEL_LAST_USED];
      if (lastUsed !== undefined) {
        if (!DATE.test(lastUsed) || lastUsed >= preserveUsedOnOrAfter) continue;
      }
      const account = accountOf(secret);
      // Only tokens the account lists are known to be auto-generated.
      if (!account || !arr(account['secrets']).some((r) => str(rec(r).name) === secret.metadata?.name)) continue;
      const namespace = secret.metadata?.namespace ?? '';
      if (mountedIn(namespace).has(secret.metadata?.name ?? '')) continue;
      const invalidSince = labels[LABEL_INVALID_SINCE];
      try {
        if (!invalidSince || !DATE.test(invalidSince)) {
          const patch = { metadata: { uid: secret.metadata?.uid, labels: { [LABEL_INVALID_SINCE]: dateOf(now) } } };
          await ctx.client.patch(SECRETS, namespace, secret.metadata?.name ?? '', patch, 'application/merge-patch+json');
          continue;
        }
        if (invalidSince >= preserveUsedOnOrAfter) continue;
        await ctx.client.delete(SECRETS, namespace, secret.metadata?.name ?? '', { preconditions: { resourceVersion: secret.metadata?.resourceVersion } });
      } catch (err) {
        if (isConflict(err) || isNotFound(err)) continue;
        ctx.log(`legacy token ${namespace}/${secret.metadata?.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };

  const queue = new WorkQueue(LEGACY_TOKEN_CLEANER_CONTROLLER, ctx.activity, evaluate, ctx.log);
  const tick = () => {
    if (stopped) return;
    queue.add('evaluate');
    timer = ctx.timers.after(CLEANER_SYNC_INTERVAL_MS, tick);
  };

  return {
    name: LEGACY_TOKEN_CLEANER_CONTROLLER,
    start() {
      void Promise.all([secrets.synced, accounts.synced, pods.synced]).then(tick);
    },
    async stop() {
      stopped = true;
      ctx.timers.cancel(timer);
      await queue.stop();
    },
  };
}
