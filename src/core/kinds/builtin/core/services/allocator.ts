// The hook through which Service IP and NodePort allocation plugs into the
// services strategy. Allocation itself (10.96.0.0/12, 30000–32767, conflicts,
// release on delete) lives with the server's allocators; the strategy calls
// them at the points kube-apiserver's service REST does (before validation on
// create and update, after delete). Registered as StrategyContext.services[SERVICE_ALLOCATOR].

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
}

export function serviceAllocator(ctx: StrategyContext): ServiceAllocator | undefined {
  return ctx.services[SERVICE_ALLOCATOR] as ServiceAllocator | undefined;
}
