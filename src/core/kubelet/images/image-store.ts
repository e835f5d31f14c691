// The images present on one node and the pulls that bring more, as
// containerd's image service and the kubelet's serial image puller
// (serializeImagePulls: true, the default) behave: one pull at a time per
// node, each taking simulated time that grows with the image's size, so a
// second pod waiting behind a first pull reports the wait ("in 2.1s (4.3s
// including waiting)"). Images stay once pulled (no garbage collection: a
// node's disk is never under pressure here).

import type { ClockTimers } from '../../util/clock-timers';
import type { Clock } from '../../clock';
import { imageInfo, PRELOADED_IMAGES } from './image-catalog';
import { parseImageReference, pullFailure, type ImageReference } from './image-reference';
import { unitFraction } from '../runtime/hash';

/** Simulated registry bandwidth: bytes per second. */
const BYTES_PER_SECOND = 40 * 1024 * 1024;
/** Resolving and unpacking: a fixed part of every pull (ms). */
const PULL_OVERHEAD_MS = 350;

export interface PullResult {
  readonly ok: boolean;
  /** On success: the pull's own time and the time including the wait behind other pulls (ms). */
  readonly pullMs?: number;
  readonly totalMs?: number;
  readonly sizeBytes?: number;
  /** On failure: containerd's message and its gRPC code. */
  readonly code?: string;
  readonly message?: string;
}

export class ImageStore {
  private readonly present = new Map<string, number>();
  /** The end of the last queued pull (serial puller): ms on the Clock. */
  private busyUntil = 0;

  constructor(
    private readonly clock: Clock,
    private readonly timers: ClockTimers,
  ) {
    for (const name of PRELOADED_IMAGES) this.add(parseImageReference(name));
  }

  has(ref: ImageReference): boolean {
    return this.present.has(ref.normalized);
  }

  add(ref: ImageReference): void {
    this.present.set(ref.normalized, imageInfo(ref).sizeBytes);
  }

  /** Remembers names a node reported before (node.status.images) so a restarted kubelet keeps them. */
  addName(name: string): void {
    try {
      this.add(parseImageReference(name));
    } catch {
      // A digest-only or foreign name: nothing to remember.
    }
  }

  list(): { names: string[]; sizeBytes: number }[] {
    return [...this.present.entries()].map(([name, sizeBytes]) => ({ names: [name], sizeBytes })).sort((a, b) => b.sizeBytes - a.sizeBytes);
  }

  /** How long pulling this image takes once its turn has come (ms): deterministic per reference. */
  pullDurationMs(ref: ImageReference): number {
    const size = imageInfo(ref).sizeBytes;
    return Math.round(PULL_OVERHEAD_MS + (size / BYTES_PER_SECOND) * 1000 + unitFraction(ref.normalized) * 400);
  }

  /** Pulls an image (waiting behind earlier pulls); resolves when it is present or has failed. */
  async pull(ref: ImageReference, signal?: { cancelled: boolean }): Promise<PullResult> {
    const requested = this.clock.now();
    const failure = pullFailure(ref);
    const own = failure ? 200 + Math.round(unitFraction(ref.normalized) * 300) : this.pullDurationMs(ref);
    const start = Math.max(requested, this.busyUntil);
    const end = start + own;
    this.busyUntil = end;
    await this.timers.until(end);
    if (signal?.cancelled) return { ok: false, code: 'Canceled', message: 'context canceled' };
    if (failure) return { ok: false, code: failure.code, message: failure.message };
    this.add(ref);
    return { ok: true, pullMs: own, totalMs: end - requested, sizeBytes: imageInfo(ref).sizeBytes };
  }
}
