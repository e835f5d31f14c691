// The batch group (v1).

import type { ResourceDefinition } from '../../types';
import { cronJobsResource } from './cronjobs';
import { jobsResource } from './jobs';

export function batchResources(): ResourceDefinition[] {
  return [cronJobsResource, jobsResource];
}
