// What every pod worker of one node shares: the kubelet's client and
// clock, the node's images, IPs, back-offs and volumes, its event
// recorder and log.

import type { ApiClient } from '../../controllers/client/api-client';
import type { Activity } from '../../controllers/runtime/activity';
import type { EventRecorder } from '../../controllers/runtime/event-recorder';
import type { Clock } from '../../clock';
import type { ClockTimers } from '../../util/clock-timers';
import type { NodeConfig } from '../topology';
import type { ImageStore } from '../images/image-store';
import type { NodeVolumes } from '../volumes/volume-builder';
import type { Backoff } from './backoff';
import type { IpAllocator } from './ip-allocator';
import type { ObjectSource } from './object-source';

export interface WorkerContext {
  readonly client: ApiClient;
  readonly clock: Clock;
  readonly timers: ClockTimers;
  readonly activity: Activity;
  readonly recorder: EventRecorder;
  readonly log: (message: string) => void;
  readonly node: NodeConfig;
  readonly nodeIP: string;
  readonly ips: IpAllocator;
  readonly images: ImageStore;
  /** Container restarts (CrashLoopBackOff) and image pulls (ImagePullBackOff). */
  readonly restartBackoff: Backoff;
  readonly pullBackoff: Backoff;
  readonly source: ObjectSource;
  readonly volumes: NodeVolumes;
  /** Node allocatable for resourceFieldRef without a limit. */
  readonly allocatable: { readonly cpu: string; readonly memory: string; readonly ephemeralStorage: string };
}
