// The core ("" group, v1) resources.

import type { ResourceDefinition } from '../../types';
import type { BuiltinOptions } from '../index';
import { configMapsResource } from './configmaps';
import { namespacesResource } from './namespaces';
import { podsResource } from './pods';
import { secretsResource } from './secrets';

export function coreResources(options: BuiltinOptions = {}): ResourceDefinition[] {
  return [
    configMapsResource,
    namespacesResource,
    podsResource({ inPlacePodVerticalScaling: options.featureGates?.InPlacePodVerticalScaling === true }),
    secretsResource,
  ];
}
