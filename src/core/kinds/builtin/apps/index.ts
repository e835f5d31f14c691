// The apps group (v1).

import type { ResourceDefinition } from '../../types';
import { controllerRevisionsResource } from './controllerrevisions';
import { daemonSetsResource } from './daemonsets';
import { deploymentsResource } from './deployments';
import { replicaSetsResource } from './replicasets';
import { statefulSetsResource } from './statefulsets';

export function appsResources(): ResourceDefinition[] {
  return [controllerRevisionsResource, daemonSetsResource, deploymentsResource, replicaSetsResource, statefulSetsResource];
}
