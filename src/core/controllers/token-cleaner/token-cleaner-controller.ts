// kube-controller-manager's token cleaner (--controllers=…,tokencleaner):
// bootstrap token Secrets in kube-system (type bootstrap.kubernetes.io/token)
// are deleted once their `expiration` has passed, with their UID as a
// precondition so that a Secret re-created under the same name survives.
// Time is the cluster's Clock: a token is looked at again when it is due,
// and moving the Clock forward past its expiration removes it.

import type { KubeObject } from '../../kinds/types';
import { BOOTSTRAP_TOKEN_SECRET_TYPE } from '../../auth/authn/bootstrap-token';
import { tokenExpiration } from '../../auth/bootstrap-tokens/expiration';
import { isConflict, isNotFound } from '../client/api-error';
import { Informer } from '../client/informer';
import type { GroupVersionResource } from '../client/resource-path';
import { ClockAlarms } from '../runtime/clock-alarm';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';

export const TOKEN_CLEANER_CONTROLLER = 'token-cleaner-controller';
/** The namespace kube's --controllers tokencleaner looks in (TokenSecretNamespace). */
export const TOKEN_SECRET_NAMESPACE = 'kube-system';
export const SECRETS: GroupVersionResource = { group: '', version: 'v1', resource: 'secrets' };

export interface ClockPolling {
  /** How often a pending expiry re-reads the Clock (default 1 s). */
  readonly clockPollMs?: number;
}

/** The informer both bootstrap-token controllers use: token Secrets of kube-system only. */
export function bootstrapTokenSecrets(ctx: ControllerContext): Informer {
  return new Informer(ctx.client, SECRETS, ctx.activity, {
    namespace: TOKEN_SECRET_NAMESPACE,
    fieldSelector: `type=${BOOTSTRAP_TOKEN_SECRET_TYPE}`,
    log: ctx.log,
  });
}

export function tokenCleanerController(ctx: ControllerContext, options: ClockPolling = {}): Controller {
  const secrets = bootstrapTokenSecrets(ctx);
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(TOKEN_CLEANER_CONTROLLER, ctx.activity, async (name) => {
    const secret = secrets.get(TOKEN_SECRET_NAMESPACE, name);
    if (!secret || secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE) return;
    const { expired, at } = tokenExpiration(secret, ctx.clock.now());
    if (!expired) {
      if (at !== undefined) alarms.set(name, at);
      return;
    }
    try {
      await ctx.client.delete(SECRETS, TOKEN_SECRET_NAMESPACE, name, { preconditions: { uid: secret.metadata?.uid ?? '' } });
    } catch (err) {
      // Gone already, or replaced by another Secret of the same name: nothing to do (as kube).
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }, ctx.log);
  const alarms = new ClockAlarms(ctx.clock, (name) => queue.add(name), options.clockPollMs);

  const enqueue = (secret: KubeObject) => queue.add(secret.metadata?.name ?? '');
  return {
    name: TOKEN_CLEANER_CONTROLLER,
    start() {
      secrets.start();
      unsubscribe.push(secrets.addHandler({ onAdd: enqueue, onUpdate: (_old, s) => enqueue(s), onDelete: (s) => alarms.cancel(s.metadata?.name ?? '') }));
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      alarms.stop();
      await queue.stop();
      await secrets.stop();
    },
  };
}
