// Subresources and resources that are not plain stored objects: each is a
// handler named by the kind's declaration (SubresourceDefinition.handler,
// ResourceDefinition.handler). Handlers for access control (tokens, reviews)
// live in ../access.

import type { SubresourceDefinition } from '../../kinds/types';
import type { RequestScope, ServerContext } from '../context';
import { handleScale } from './scale';
import { handlePodBinding, handleBindingResource } from './pod-binding';
import { handlePodLog } from './pod-log';
import { handlePodEviction } from './pod-eviction';
import { handleUpgradeRequired } from './upgrade-required';
import { handleProxy } from './proxy';
import { handleComponentStatuses } from './componentstatuses';
// metrics.k8s.io/v1beta1, served as metrics-server would (src/core/api/metrics).
import { handleNodeMetrics, handlePodMetrics } from '../metrics/metrics-handlers';
import { NODE_METRICS_HANDLER, POD_METRICS_HANDLER } from '../metrics/metrics-resources';
import {
  handleLocalSubjectAccessReview,
  handleSelfSubjectAccessReview,
  handleSelfSubjectReview,
  handleSelfSubjectRulesReview,
  handleServiceAccountToken,
  handleSubjectAccessReview,
  handleTokenReview,
} from '../access/review-handlers';

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
  'serviceaccount-token': handleServiceAccountToken,
};

export const virtualHandlers: Record<string, VirtualHandler> = {
  'pod-binding': handleBindingResource,
  componentstatuses: handleComponentStatuses,
  [NODE_METRICS_HANDLER]: handleNodeMetrics,
  [POD_METRICS_HANDLER]: handlePodMetrics,
  tokenreview: handleTokenReview,
  selfsubjectreview: handleSelfSubjectReview,
  subjectaccessreview: handleSubjectAccessReview,
  selfsubjectaccessreview: handleSelfSubjectAccessReview,
  localsubjectaccessreview: handleLocalSubjectAccessReview,
  selfsubjectrulesreview: handleSelfSubjectRulesReview,
};
