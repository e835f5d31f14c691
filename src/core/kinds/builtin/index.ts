// Every resource a default kube-apiserver 1.32 serves, declared as data, plus
// the alpha and beta group-versions it knows but leaves off
// (enabledByDefault: false; --runtime-config turns them on).

import type { ResourceDefinition } from '../types';
import { appsResources } from './apps';
import { coreResources } from './core';

export interface BuiltinOptions {
  /** Feature gates that add or remove subresources (InPlacePodVerticalScaling adds pods/resize). */
  featureGates?: Readonly<Record<string, boolean>>;
}

export function builtinResources(options: BuiltinOptions = {}): ResourceDefinition[] {
  return [...coreResources(options), ...appsResources()];
}

/** Index by "group/resource" ("" group for core: "/pods", "apps/deployments"). */
export function builtinResourceIndex(options: BuiltinOptions = {}): ReadonlyMap<string, ResourceDefinition> {
  return new Map(builtinResources(options).map((d) => [`${d.group}/${d.plural}`, d]));
}

export function findBuiltinResource(group: string, resource: string, options: BuiltinOptions = {}): ResourceDefinition | undefined {
  return builtinResourceIndex(options).get(`${group}/${resource}`);
}
