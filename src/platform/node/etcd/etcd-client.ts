// A small etcd v3 client over @grpc/grpc-js: Range, Txn, Compact and the
// bidirectional Watch stream, the calls kube-apiserver's etcd3 store makes.
// Endpoints are tried in the order given (--etcd-servers); a call that finds
// its endpoint unavailable moves on to the next one. TLS follows
// --etcd-cafile/--etcd-certfile/--etcd-keyfile.

import * as grpc from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';
import { CompactedError, FutureRevisionError, StorageError, StorageUnavailableError } from '../../../core/storage/types';
import { ETCD_RPC_SCHEMA, type RpcCompare, type RpcRangeResponse, type RpcRequestOp, type RpcTxnResponse, type RpcWatchResponse } from './etcd-rpc';

export interface EtcdTls {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

export interface EtcdClientOptions {
  /** http(s)://host:port, as --etcd-servers lists them. */
  readonly endpoints: readonly string[];
  readonly tls?: EtcdTls;
  /** Deadline of one unary call (kube-apiserver's etcd request timeout is of this order). */
  readonly callTimeoutMs?: number;
}

export interface RangeRequest {
  readonly key: Buffer;
  readonly rangeEnd?: Buffer;
  readonly limit?: number;
  readonly revision?: number;
  readonly countOnly?: boolean;
  readonly keysOnly?: boolean;
  /** Only keys last written at or after this revision (etcd drops the others after reading the range). */
  readonly minModRevision?: number;
}

export interface TxnRequest {
  readonly compare: RpcCompare[];
  readonly success: RpcRequestOp[];
  readonly failure: RpcRequestOp[];
}

export interface WatchRequest {
  createRequest?: { key: Buffer; rangeEnd?: Buffer; startRevision?: number; progressNotify?: boolean; prevKv?: boolean };
  cancelRequest?: { watchId: number };
  progressRequest?: Record<string, never>;
}

export type WatchStream = grpc.ClientDuplexStream<WatchRequest, RpcWatchResponse>;

/** etcd could not be reached or did not answer in time: nothing is known about the outcome of a write. */
export class EtcdUnavailableError extends StorageUnavailableError {}

const loaderOptions = { longs: Number, enums: String, defaults: true, oneofs: true } as const;
const definition = grpc.loadPackageDefinition(fromJSON(ETCD_RPC_SCHEMA as Parameters<typeof fromJSON>[0], loaderOptions)) as unknown as {
  etcdserverpb: { KV: grpc.ServiceClientConstructor; Watch: grpc.ServiceClientConstructor; Lease: grpc.ServiceClientConstructor };
};

/** The gRPC target of an --etcd-servers URL, and whether it wants TLS. */
export function parseEndpoint(url: string): { target: string; secure: boolean } {
  const match = /^(https?|unixs?):\/\/(.+?)\/?$/.exec(url.trim());
  if (!match) throw new Error(`invalid etcd server URL "${url}": expected http://host:port or https://host:port`);
  const scheme = match[1]!;
  const rest = match[2]!;
  if (scheme.startsWith('unix')) return { target: `unix:${rest}`, secure: scheme === 'unixs' };
  return { target: rest.includes(':') ? rest : `${rest}:2379`, secure: scheme === 'https' };
}

interface Endpoint {
  readonly kv: grpc.Client & Record<string, (...args: unknown[]) => unknown>;
  readonly watch: grpc.Client & Record<string, (...args: unknown[]) => unknown>;
  readonly lease: grpc.Client & Record<string, (...args: unknown[]) => unknown>;
}

export class EtcdClient {
  private readonly endpoints: Endpoint[];
  /** The endpoint calls go to first; moves on when it is unavailable. */
  private current = 0;
  private readonly callTimeoutMs: number;

  constructor(options: EtcdClientOptions) {
    if (options.endpoints.length === 0) throw new Error('--etcd-servers must name at least one server');
    this.callTimeoutMs = options.callTimeoutMs ?? 15_000;
    this.endpoints = options.endpoints.map((url) => {
      const { target, secure } = parseEndpoint(url);
      const credentials = secure
        ? grpc.credentials.createSsl(options.tls?.ca ?? null, options.tls?.key ?? null, options.tls?.cert ?? null)
        : grpc.credentials.createInsecure();
      const channelOptions = { 'grpc.max_receive_message_length': -1, 'grpc.max_send_message_length': -1 };
      return {
        kv: new definition.etcdserverpb.KV(target, credentials, channelOptions) as Endpoint['kv'],
        watch: new definition.etcdserverpb.Watch(target, credentials, channelOptions) as Endpoint['watch'],
        lease: new definition.etcdserverpb.Lease(target, credentials, channelOptions) as Endpoint['lease'],
      };
    });
  }

  range(request: RangeRequest): Promise<RpcRangeResponse> {
    return this.unary<RpcRangeResponse>('Range', request);
  }

  txn(request: TxnRequest): Promise<RpcTxnResponse> {
    return this.unary<RpcTxnResponse>('Txn', request);
  }

  /** Grants an etcd lease of `ttlSeconds`; keys put with its ID are deleted when it expires. */
  async leaseGrant(ttlSeconds: number): Promise<number> {
    // The client picks the ID: etcd's own are 64-bit and do not survive the decoder's Number longs.
    const id = 1 + Math.floor(Math.random() * (Number.MAX_SAFE_INTEGER - 1));
    const response = await this.unary<{ ID: number; error: string }>('LeaseGrant', { TTL: ttlSeconds, ID: id }, 'lease');
    if (response.error) throw new StorageError(`etcd: ${response.error}`);
    return id;
  }

  async compact(revision: number): Promise<void> {
    await this.unary('Compact', { revision, physical: false });
  }

  /** Opens a Watch stream on the current endpoint; the caller creates its watches on it. */
  watchStream(): WatchStream {
    const endpoint = this.endpoints[this.current]!;
    return (endpoint.watch['Watch'] as () => WatchStream).call(endpoint.watch);
  }

  /** Moves to the next endpoint (after a watch stream failed on this one). */
  failover(): void {
    this.current = (this.current + 1) % this.endpoints.length;
  }

  close(): void {
    for (const endpoint of this.endpoints) {
      endpoint.kv.close();
      endpoint.watch.close();
      endpoint.lease.close();
    }
  }

  /**
   * One call, waiting for etcd as clientv3 does (wait for ready): while no endpoint can be reached
   * (the call was never sent) it is tried again until the call deadline, so that a short outage
   * (etcd restarting) is not an error; after the deadline it is EtcdUnavailableError.
   */
  private async unary<T>(method: string, request: unknown, service: 'kv' | 'lease' = 'kv'): Promise<T> {
    const deadline = Date.now() + this.callTimeoutMs;
    let delay = 100;
    for (;;) {
      try {
        return await this.unaryOnce<T>(method, request, service);
      } catch (err) {
        if (!(err instanceof EtcdUnavailableError) || !/No connection established|ECONNREFUSED|connect/i.test(err.message) || Date.now() + delay >= deadline) throw err;
        // Host time: this waits for a network peer, not for the cluster's clock.
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 1000);
      }
    }
  }

  private async unaryOnce<T>(method: string, request: unknown, service: 'kv' | 'lease'): Promise<T> {
    let lastError: unknown;
    for (let attempt = 0; attempt < this.endpoints.length; attempt++) {
      const index = this.current;
      const client = this.endpoints[index]![service];
      try {
        return await new Promise<T>((resolve, reject) => {
          const deadline = new Date(Date.now() + this.callTimeoutMs);
          (client[method] as (req: unknown, meta: grpc.Metadata, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res: T) => void) => void).call(
            client,
            request,
            new grpc.Metadata(),
            { deadline },
            (err, res) => (err ? reject(err) : resolve(res)),
          );
        });
      } catch (err) {
        lastError = err;
        // Only an endpoint that could not be reached is skipped; any other answer is etcd's.
        if (!isUnavailable(err)) throw mapEtcdError(err);
        if (this.current === index) this.current = (index + 1) % this.endpoints.length;
      }
    }
    throw mapEtcdError(lastError);
  }
}

function isUnavailable(err: unknown): boolean {
  return (err as grpc.ServiceError | undefined)?.code === grpc.status.UNAVAILABLE;
}

/** etcd's gRPC errors as the storage errors the API layer understands. */
export function mapEtcdError(err: unknown, requested?: number): Error {
  const e = err as grpc.ServiceError | undefined;
  const details = e?.details ?? (err instanceof Error ? err.message : String(err));
  if (/required revision has been compacted/.test(details)) return new CompactedError(requested ?? 0, requested ?? 0);
  if (/required revision is a future revision/.test(details)) return new FutureRevisionError(requested ?? 0, 0);
  if (e?.code === grpc.status.UNAVAILABLE || e?.code === grpc.status.DEADLINE_EXCEEDED) {
    return new EtcdUnavailableError(`etcd: ${details}`);
  }
  return new StorageError(`etcd: ${details}`);
}
