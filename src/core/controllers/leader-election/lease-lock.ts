// The Lease a leader election contends for (client-go's resourcelock
// LeaseLock): kube-system/kube-controller-manager, kube-system/kube-scheduler.
// The election's record is the Lease's spec — holderIdentity,
// leaseDurationSeconds, acquireTime and renewTime (MicroTime), and
// leaseTransitions — read with a get and written with an update that carries
// the resourceVersion last read, so that two candidates writing from the
// same reading conflict and only one of them wins.

import { rfc3339Micro } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import type { ApiClient } from '../client/api-client';
import { isNotFound } from '../client/api-error';
import type { GroupVersionResource } from '../client/resource-path';
import type { EventRecorder } from '../runtime/event-recorder';

export const LEASES: GroupVersionResource = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };

/** What the election reads and writes (client-go's LeaderElectionRecord); times in Clock ms. */
export interface LeaderElectionRecord {
  /** '' when nobody holds the lease (a leader released it). */
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  readonly acquireTime?: number;
  readonly renewTime?: number;
  readonly leaseTransitions: number;
}

export interface ReadRecord {
  readonly record: LeaderElectionRecord;
  /** The spec as read, to tell whether the record changed since the last reading. */
  readonly raw: string;
}

function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function recordOf(lease: KubeObject): LeaderElectionRecord {
  const spec = (lease['spec'] ?? {}) as Record<string, unknown>;
  const acquireTime = parseTime(spec['acquireTime']);
  const renewTime = parseTime(spec['renewTime']);
  return {
    holderIdentity: typeof spec['holderIdentity'] === 'string' ? spec['holderIdentity'] : '',
    leaseDurationSeconds: typeof spec['leaseDurationSeconds'] === 'number' ? spec['leaseDurationSeconds'] : 0,
    ...(acquireTime !== undefined ? { acquireTime } : {}),
    ...(renewTime !== undefined ? { renewTime } : {}),
    leaseTransitions: typeof spec['leaseTransitions'] === 'number' ? spec['leaseTransitions'] : 0,
  };
}

function specOf(record: LeaderElectionRecord): Record<string, unknown> {
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    ...(record.acquireTime !== undefined ? { acquireTime: rfc3339Micro(record.acquireTime) } : {}),
    ...(record.renewTime !== undefined ? { renewTime: rfc3339Micro(record.renewTime) } : {}),
    leaseTransitions: record.leaseTransitions,
  };
}

export class LeaseLock {
  /** The Lease as last read or written: its resourceVersion guards the next update. */
  private lease: KubeObject | undefined;

  constructor(
    private readonly client: ApiClient,
    readonly namespace: string,
    readonly name: string,
    /** Who this candidate is, for the events it records. */
    readonly identity: string,
    private readonly recorder: EventRecorder,
  ) {}

  /** `namespace/name`, for log lines. */
  describe(): string {
    return `${this.namespace}/${this.name}`;
  }

  /** The current record, or undefined when the Lease does not exist. Other errors reject. */
  async get(): Promise<ReadRecord | undefined> {
    try {
      this.lease = await this.client.get(LEASES, this.namespace, this.name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    return { record: recordOf(this.lease), raw: JSON.stringify(this.lease['spec'] ?? {}) };
  }

  /** Creates the Lease with this record; AlreadyExists (another candidate was first) rejects. */
  async create(record: LeaderElectionRecord): Promise<void> {
    this.lease = await this.client.create(LEASES, this.namespace, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.name, namespace: this.namespace },
      spec: specOf(record),
    });
  }

  /** Writes the record over the Lease last read; a write by anyone since then is a Conflict. */
  async update(record: LeaderElectionRecord): Promise<void> {
    if (!this.lease) throw new Error(`lease ${this.describe()} not read before its update`);
    this.lease = await this.client.update(LEASES, this.namespace, { ...this.lease, spec: specOf(record) });
  }

  /** An event on the Lease, `<identity> <what>` (reason LeaderElection), as client-go's LeaseLock records it. */
  recordEvent(what: string): Promise<void> {
    const meta = this.lease?.metadata ?? { name: this.name, namespace: this.namespace };
    const subject: KubeObject = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: meta };
    return this.recorder.record(subject, { type: 'Normal', reason: 'LeaderElection', message: `${this.identity} ${what}` });
  }
}
