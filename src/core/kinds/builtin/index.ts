// Every resource a default kube-apiserver 1.32 serves, declared as data, plus
// the alpha and beta group-versions it knows but leaves off
// (enabledByDefault: false; --runtime-config turns them on, as in kube).

import type { ResourceDefinition } from '../types';
import { admissionRegistrationResources } from './admissionregistration';
import { apiExtensionsResources } from './apiextensions';
import { apiRegistrationResources } from './apiregistration';
import { appsResources } from './apps';
import { authenticationResources, authorizationResources } from './auth';
import { autoscalingResources } from './autoscaling';
import { batchResources } from './batch';
import { certificatesResources } from './certificates';
import { coordinationResources } from './coordination';
import { coreResources } from './core';
import { discoveryResources } from './discovery';
import { eventsResources } from './events';
import { flowControlResources } from './flowcontrol';
import { internalResources } from './internal';
import { networkingResources } from './networking';
import { nodeResources } from './node';
import { policyResources } from './policy';
import { rbacResources } from './rbac';
import { resourceResources } from './resource';
import { schedulingResources } from './scheduling';
import { storageResources } from './storage';

export interface BuiltinOptions {
  /** Feature gates that add or remove subresources (InPlacePodVerticalScaling adds pods/resize). */
  featureGates?: Readonly<Record<string, boolean>>;
}

/** All built-in resource definitions, core group first, then the named groups. */
export function builtinResources(options: BuiltinOptions = {}): ResourceDefinition[] {
  return [
    ...coreResources(options),
    ...apiRegistrationResources(),
    ...appsResources(),
    ...eventsResources(),
    ...authenticationResources(),
    ...authorizationResources(),
    ...autoscalingResources(),
    ...batchResources(),
    ...certificatesResources(),
    ...networkingResources(),
    ...policyResources(),
    ...rbacResources(),
    ...storageResources(),
    ...admissionRegistrationResources(),
    ...apiExtensionsResources(),
    ...schedulingResources(),
    ...coordinationResources(),
    ...nodeResources(),
    ...discoveryResources(),
    ...flowControlResources(),
    ...internalResources(),
    ...resourceResources(),
  ];
}

/** Index by "group/resource" ("" group for core: "/pods", "apps/deployments"). */
export function builtinResourceIndex(options: BuiltinOptions = {}): ReadonlyMap<string, ResourceDefinition> {
  return new Map(builtinResources(options).map((d) => [`${d.group}/${d.plural}`, d]));
}

export function findBuiltinResource(group: string, resource: string, options: BuiltinOptions = {}): ResourceDefinition | undefined {
  return builtinResourceIndex(options).get(`${group}/${resource}`);
}
