// The part of kube-apiserver's API Priority and Fairness configuration
// controller that a client can see: each FlowSchema's Dangling condition,
// which says whether the PriorityLevelConfiguration it names exists. kubectl
// prints it as the MISSINGPL column of `kubectl get flowschemas` (False for
// every suggested schema on a fresh cluster). kube writes the condition with
// server-side apply to the status subresource under the field manager
// "api-priority-and-fairness-config-consumer-v1", only when its status, reason
// or message differ, and stamps lastTransitionTime whenever it writes.
// (KubeTab does not queue requests by priority level; only the configuration's
// observable status is kept.)

import { rfc3339 } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { isNotFound } from '../client/api-error';
import { resourcePath, type GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';

export const APF_CONFIGURATION_CONTROLLER = 'priority-and-fairness-config';
export const FIELD_MANAGER = 'api-priority-and-fairness-config-consumer-v1';
export const FLOW_SCHEMAS: GroupVersionResource = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', resource: 'flowschemas' };
export const PRIORITY_LEVELS: GroupVersionResource = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', resource: 'prioritylevelconfigurations' };

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** The Dangling condition a FlowSchema should carry, without its time. */
export function danglingCondition(priorityLevel: string, exists: boolean): Required<Omit<Condition, 'lastTransitionTime'>> {
  return exists
    ? { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(priorityLevel)} and it exists` }
    : { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(priorityLevel)} but there is no such object` };
}

export function apfConfigurationController(ctx: ControllerContext): Controller {
  const schemas = ctx.informers.for(FLOW_SCHEMAS);
  const levels = ctx.informers.for(PRIORITY_LEVELS);
  const unsubscribe: (() => void)[] = [];

  const queue = new WorkQueue(
    APF_CONFIGURATION_CONTROLLER,
    ctx.activity,
    async (name) => {
      const schema = schemas.get('', name) as (KubeObject & { spec?: { priorityLevelConfiguration?: { name?: string } }; status?: { conditions?: Condition[] } }) | undefined;
      if (!schema) return;
      const level = schema.spec?.priorityLevelConfiguration?.name ?? '';
      const desired = danglingCondition(level, levels.get('', level) !== undefined);
      const current = schema.status?.conditions?.find((c) => c.type === 'Dangling');
      if (current && current.status === desired.status && current.reason === desired.reason && current.message === desired.message) return;
      const body = {
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
        kind: 'FlowSchema',
        metadata: { name },
        status: { conditions: [{ ...desired, lastTransitionTime: rfc3339(ctx.clock.now()) }] },
      };
      try {
        await ctx.client.call('PATCH', `${resourcePath(FLOW_SCHEMAS, { name, subresource: 'status' })}?fieldManager=${FIELD_MANAGER}&force=true`, body, {
          'Content-Type': 'application/apply-patch+yaml',
        });
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
    },
    ctx.log,
  );

  const enqueue = (fs: KubeObject) => queue.add(fs.metadata?.name ?? '');
  const enqueueAll = () => schemas.list().forEach(enqueue);

  return {
    name: APF_CONFIGURATION_CONTROLLER,
    start() {
      void Promise.all([schemas.synced, levels.synced]).then(() => {
        unsubscribe.push(schemas.addHandler({ onAdd: enqueue, onUpdate: (_old, fs) => enqueue(fs) }));
        unsubscribe.push(levels.addHandler({ onAdd: enqueueAll, onDelete: enqueueAll }));
      });
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
    },
  };
}
