// The core ("" group, v1) resources.

import type { ResourceDefinition } from '../../types';
import type { BuiltinOptions } from '../index';
import { configMapsResource } from './configmaps';
import { endpointsResource } from './endpoints';
import { eventsResource } from './events';
import { limitRangesResource, resourceQuotasResource } from './limit-ranges-and-quotas';
import { bindingsResource, componentStatusesResource, serviceAccountsResource } from './misc';
import { namespacesResource } from './namespaces';
import { nodesResource } from './nodes';
import { podsResource } from './pods';
import { secretsResource } from './secrets';
import { servicesResource } from './services';
import { podTemplatesResource, replicationControllersResource } from './templates-and-controllers';
import { persistentVolumeClaimsResource, persistentVolumesResource } from './volumes';

export function coreResources(options: BuiltinOptions = {}): ResourceDefinition[] {
  return [
    bindingsResource,
    componentStatusesResource,
    configMapsResource,
    endpointsResource,
    eventsResource,
    limitRangesResource,
    namespacesResource,
    nodesResource,
    persistentVolumeClaimsResource,
    persistentVolumesResource,
    podsResource({ inPlacePodVerticalScaling: options.featureGates?.InPlacePodVerticalScaling === true }),
    podTemplatesResource,
    replicationControllersResource,
    resourceQuotasResource,
    secretsResource,
    serviceAccountsResource,
    servicesResource,
  ];
}
