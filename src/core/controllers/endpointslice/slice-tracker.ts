// kube's EndpointSliceTracker: the generation this controller last wrote of
// each EndpointSlice, by Service. It tells whether the informer's cache is
// behind the controller's own writes (a slice older than written, one
// written but not yet seen, one deleted but still shown), so that a sync on
// a stale cache is retried instead of creating duplicates; and whether an
// event on a slice is someone else's change (which needs a sync) or the
// echo of the controller's own write.

import type { KubeObject } from '../../kinds/types';

/** The generation recorded for a slice this controller deleted. */
const DELETION_EXPECTED = -1;

function generationOf(slice: KubeObject): number {
  const g = slice.metadata?.generation;
  return typeof g === 'number' ? g : 0;
}

export class EndpointSliceTracker {
  private readonly byService = new Map<string, Map<string, number>>();

  constructor(
    /** The key of the owning Service (or Endpoints) of a slice: "<namespace>/<name>", or undefined. */
    private readonly ownerKey: (slice: KubeObject) => string | undefined,
  ) {}

  private generations(slice: KubeObject, create: boolean): Map<string, number> | undefined {
    const key = this.ownerKey(slice);
    if (!key) return undefined;
    let g = this.byService.get(key);
    if (!g && create) this.byService.set(key, (g = new Map()));
    return g;
  }

  /** Whether the slice is tracked. */
  has(slice: KubeObject): boolean {
    return this.generations(slice, false)?.has(slice.metadata?.uid ?? '') ?? false;
  }

  /** Whether the slice, as seen, is not the controller's own last write of it. */
  shouldSync(slice: KubeObject): boolean {
    const g = this.generations(slice, false)?.get(slice.metadata?.uid ?? '');
    return g === undefined || generationOf(slice) > g;
  }

  /** Whether the cached slices of a Service are behind what the controller wrote. */
  staleSlices(serviceKey: string, slices: readonly KubeObject[]): boolean {
    const gens = this.byService.get(serviceKey);
    if (!gens) return false;
    const provided = new Set<string>();
    for (const slice of slices) {
      const uid = slice.metadata?.uid ?? '';
      provided.add(uid);
      const g = gens.get(uid);
      if (g !== undefined && (g === DELETION_EXPECTED || g > generationOf(slice))) return true;
    }
    for (const [uid, g] of gens) if (g !== DELETION_EXPECTED && !provided.has(uid)) return true;
    return false;
  }

  /** Records a slice the controller created or updated. */
  update(slice: KubeObject): void {
    this.generations(slice, true)?.set(slice.metadata?.uid ?? '', generationOf(slice));
  }

  /** Records a slice the controller deleted. */
  expectDeletion(slice: KubeObject): void {
    this.generations(slice, true)?.set(slice.metadata?.uid ?? '', DELETION_EXPECTED);
  }

  /** Forgets a deleted slice; true when the controller had deleted it itself. */
  handleDeletion(slice: KubeObject): boolean {
    const gens = this.generations(slice, false);
    const uid = slice.metadata?.uid ?? '';
    const g = gens?.get(uid);
    if (!gens || g === undefined) return false;
    gens.delete(uid);
    if (gens.size === 0) this.byService.delete(this.ownerKey(slice) ?? '');
    return g === DELETION_EXPECTED;
  }

  deleteService(key: string): void {
    this.byService.delete(key);
  }
}
