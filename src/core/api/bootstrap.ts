// What a fresh 1.32 cluster has before anyone writes to it. Created through
// the same create path as any client write (defaults, validation), and
// idempotent: an object that already exists is left alone.

import { isStatusError } from '../errors/status';
import type { KubeObject } from '../kinds/types';
import type { ServerContext } from './context';
import { createObject, strategyContext } from './resource-store';

/** The namespaces kube-apiserver's system-namespaces controller keeps. */
const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

async function ensure(ctx: ServerContext, group: string, version: string, resource: string, obj: KubeObject): Promise<void> {
  const served = ctx.registry.lookup(group, version, resource);
  if (!served) return;
  served.definition.strategy.default?.(obj, strategyContext(ctx, served, '', false));
  try {
    await createObject(ctx, served, obj, { dryRun: false, subresource: '' });
  } catch (err) {
    if (isStatusError(err) && err.code === 409) return;
    throw err;
  }
}

export async function bootstrapCluster(ctx: ServerContext): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    await ensure(ctx, '', 'v1', 'namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
}
