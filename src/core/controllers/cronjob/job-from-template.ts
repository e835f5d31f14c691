// getJobFromTemplate2: the Job a CronJob creates for a scheduled time — named
// "<cronjob>-<minutes since the epoch>" (so the same run is never created
// twice), with the template's labels and annotations, the scheduled time in
// batch.kubernetes.io/cronjob-scheduled-timestamp (RFC 3339 in the
// CronJob's time zone), and the CronJob as its controller.

import type { KubeObject } from '../../kinds/types';
import { clone, rec } from '../job/json';
import type { Zone } from './zoned-time';

export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

export const jobNameFor = (cronJobName: string, scheduledMs: number): string => `${cronJobName}-${Math.floor(scheduledMs / 60_000)}`;

export function jobFromTemplate(cj: KubeObject, scheduledMs: number, zone: Zone): KubeObject {
  const template = rec(rec(cj.spec).jobTemplate);
  const meta = rec(template.metadata);
  const labels = { ...(rec(meta.labels) as Record<string, string>) };
  const annotations = { ...(rec(meta.annotations) as Record<string, string>), [SCHEDULED_TIMESTAMP_ANNOTATION]: zone.rfc3339(scheduledMs) };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobNameFor(cj.metadata?.name ?? '', scheduledMs),
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      annotations,
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata?.name ?? '', uid: cj.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: clone(rec(template.spec)),
  };
}
