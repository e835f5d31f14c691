// kube-controller-manager's bootstrap signer (--controllers=…,bootstrapsigner):
// the `cluster-info` ConfigMap in kube-public carries, for every bootstrap
// token Secret in kube-system that may sign (usage-bootstrap-signing "true",
// not expired), a `jws-kubeconfig-<token-id>` detached JWS of its
// `kubeconfig`; signatures of tokens that no longer sign are removed. Any
// change to the ConfigMap or to a token Secret re-signs (one work key, as
// kube's "signing"); the ConfigMap is written only when a signature changed.
// The signatures come from the pure functions of auth/bootstrap-tokens.
//
// Beyond kube, a signing token's expiry is also a wake-up on the cluster's
// Clock: kube leaves an expired token's signature until the token cleaner
// deletes the Secret or its informers resync; KubeTab drops it when due, so
// that the state a learner sees does not depend on which controllers run.

import type { KubeObject } from '../../kinds/types';
import { CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE, signClusterInfo, signingToken } from '../../auth/bootstrap-tokens/signer';
import { tokenExpiration } from '../../auth/bootstrap-tokens/expiration';
import { isNotFound } from '../client/api-error';
import { Informer } from '../client/informer';
import type { GroupVersionResource } from '../client/resource-path';
import { ClockAlarms } from '../runtime/clock-alarm';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { bootstrapTokenSecrets, TOKEN_SECRET_NAMESPACE, type ClockPolling } from '../token-cleaner/token-cleaner-controller';

export const BOOTSTRAP_SIGNER_CONTROLLER = 'bootstrap-signer-controller';
const CONFIGMAPS: GroupVersionResource = { group: '', version: 'v1', resource: 'configmaps' };
const SIGNING = 'signing';

export function bootstrapSignerController(ctx: ControllerContext, options: ClockPolling = {}): Controller {
  const secrets = bootstrapTokenSecrets(ctx);
  const configMaps = new Informer(ctx.client, CONFIGMAPS, ctx.activity, {
    namespace: CLUSTER_INFO_NAMESPACE,
    fieldSelector: `metadata.name=${CLUSTER_INFO_NAME}`,
    log: ctx.log,
  });
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(BOOTSTRAP_SIGNER_CONTROLLER, ctx.activity, async () => {
    if (!secrets.hasSynced || !configMaps.hasSynced) return;
    const now = ctx.clock.now();
    const tokens = secrets.list(TOKEN_SECRET_NAMESPACE);
    // The next signing token to expire: its signature goes then.
    let next: number | undefined;
    for (const s of tokens) {
      if (!signingToken(s, now)) continue;
      const at = tokenExpiration(s, now).at;
      if (at !== undefined && (next === undefined || at < next)) next = at;
    }
    if (next !== undefined) alarms.set(SIGNING, next);
    const cm = configMaps.get(CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME);
    if (!cm) return;
    const data = await signClusterInfo(cm, tokens, now);
    if (!data) return;
    try {
      await ctx.client.update(CONFIGMAPS, CLUSTER_INFO_NAMESPACE, { ...cm, data });
    } catch (err) {
      // Deleted meanwhile: nothing to sign. A conflict is retried against the fresher cache.
      if (isNotFound(err)) return;
      throw err;
    }
  }, ctx.log);
  const alarms = new ClockAlarms(ctx.clock, () => queue.add(SIGNING), options.clockPollMs);

  const changed = (_obj?: KubeObject) => queue.add(SIGNING);
  return {
    name: BOOTSTRAP_SIGNER_CONTROLLER,
    start() {
      secrets.start();
      configMaps.start();
      for (const informer of [secrets, configMaps]) {
        unsubscribe.push(informer.addHandler({ onAdd: changed, onUpdate: (_old, o) => changed(o), onDelete: changed }));
      }
      void Promise.all([secrets.synced, configMaps.synced]).then(() => changed());
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      alarms.stop();
      await queue.stop();
      await Promise.all([secrets.stop(), configMaps.stop()]);
    },
  };
}
