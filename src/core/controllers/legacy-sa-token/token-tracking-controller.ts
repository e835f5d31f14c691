// kube-apiserver's legacy token tracking controller (post-start hook
// start-legacy-token-tracking-controller): ConfigMap
// kube-system/kube-apiserver-legacy-service-account-token-tracking says,
// under `since`, the date from which the server labels legacy tokens with
// their last use; the legacy token cleaner reads it so that it never judges
// a token unused for longer than it has been watched. Created once; a
// malformed date is replaced by today's.

import type { KubeObject } from '../../kinds/types';
import { isAlreadyExists, isConflict, isNotFound } from '../client/api-error';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { Informer } from '../client/informer';
import { rec, str } from '../job/json';
import { CONFIGMAPS, dateOf, TRACKING_CONFIGMAP, TRACKING_SINCE_KEY } from './token-names';

export const LEGACY_TOKEN_TRACKING_CONTROLLER = 'legacy-token-tracking-controller';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function legacyTokenTrackingController(ctx: ControllerContext): Controller {
  const configMaps = new Informer(ctx.client, CONFIGMAPS, ctx.activity, { fieldSelector: `metadata.name=${TRACKING_CONFIGMAP}`, log: ctx.log });
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(
    LEGACY_TOKEN_TRACKING_CONTROLLER,
    ctx.activity,
    async () => {
      const cm = configMaps.get('kube-system', TRACKING_CONFIGMAP);
      const today = dateOf(ctx.clock.now());
      try {
        if (!cm) {
          await ctx.client.create(CONFIGMAPS, 'kube-system', {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: TRACKING_CONFIGMAP, namespace: 'kube-system' },
            data: { [TRACKING_SINCE_KEY]: today },
          });
          return;
        }
        if (DATE.test(str(rec(cm['data'])[TRACKING_SINCE_KEY]))) return;
        const fixed: KubeObject = { ...cm, data: { ...rec(cm['data']), [TRACKING_SINCE_KEY]: today } };
        await ctx.client.update(CONFIGMAPS, 'kube-system', fixed);
      } catch (err) {
        if (isAlreadyExists(err) || isConflict(err) || isNotFound(err)) return;
        throw err;
      }
    },
    ctx.log,
  );

  return {
    name: LEGACY_TOKEN_TRACKING_CONTROLLER,
    start() {
      configMaps.start();
      void configMaps.synced.then(() => {
        queue.add(TRACKING_CONFIGMAP);
        unsubscribe.push(configMaps.addHandler({ onUpdate: () => queue.add(TRACKING_CONFIGMAP), onDelete: () => queue.add(TRACKING_CONFIGMAP) }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
      await configMaps.stop();
    },
  };
}
