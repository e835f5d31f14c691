// The hook through which Service IP and NodePort allocation plugs into the
// services strategy; the strategy calls it at the points kube-apiserver's
// service REST does (before validation on create and update, after delete).
// Registered as StrategyContext.services[SERVICE_ALLOCATOR]; the server's
// implementation is store-allocator.ts (10.96.0.0/12, 30000–32767).

import type { KubeObject, StrategyContext } from '../../../types';

export const SERVICE_ALLOCATOR = 'serviceAllocator';

export interface ServiceAllocator {
  /**
   * Fills spec.clusterIP/clusterIPs, node ports and health-check node port of
   * a new Service (honouring values the client asked for). Throws a
   * StatusError (422 Invalid) on a conflict. Must not allocate on dry run.
   */
  allocate(service: KubeObject, ctx: StrategyContext): Promise<void>;
  /** Same for an update: allocates what the new object needs and old lacked. */
  allocateOnUpdate(service: KubeObject, old: KubeObject, ctx: StrategyContext): Promise<void>;
  /** Returns what a deleted (or type-changed) Service held to the pools. */
  release(service: KubeObject, ctx: StrategyContext): Promise<void>;
  /**
   * The request that allocated under `ctx` failed validation: what it took is
   * free again (kube reverts its allocation transaction).
   */
  abandon?(ctx: StrategyContext): void;
}

export function serviceAllocator(ctx: StrategyContext): ServiceAllocator | undefined {
  return ctx.services[SERVICE_ALLOCATOR] as ServiceAllocator | undefined;
}
