// Subresources and resources that are not plain stored objects: each is a
// handler named by the kind's declaration (SubresourceDefinition.handler,
// ResourceDefinition.handler). Handlers for access control (tokens, reviews)
// are registered by the auth wiring.

import type { SubresourceDefinition } from '../../kinds/types';
import type { RequestScope, ServerContext } from '../context';
import { handleScale } from './scale';
import { handlePodBinding, handleBindingResource } from './pod-binding';
import { handlePodLog } from './pod-log';
import { handlePodEviction } from './pod-eviction';
import { handleUpgradeRequired } from './upgrade-required';
import { handleProxy } from './proxy';
import { handleComponentStatuses } from './componentstatuses';

export type SubresourceHandler = (ctx: ServerContext, scope: RequestScope, sub: SubresourceDefinition) => Promise<Response>;
export type VirtualHandler = (ctx: ServerContext, scope: RequestScope) => Promise<Response>;

export const subresourceHandlers: Record<string, SubresourceHandler> = {
  scale: handleScale,
  'pod-binding': handlePodBinding,
  'pod-log': handlePodLog,
  'pod-eviction': handlePodEviction,
  'pod-exec': handleUpgradeRequired,
  'pod-attach': handleUpgradeRequired,
  'pod-portforward': handleUpgradeRequired,
  'pod-proxy': handleProxy,
  'service-proxy': handleProxy,
  'node-proxy': handleProxy,
};

export const virtualHandlers: Record<string, VirtualHandler> = {
  'pod-binding': handleBindingResource,
  componentstatuses: handleComponentStatuses,
};
