// kube-apiserver's "lease" endpoint reconciler storage (its default
// --endpoint-reconciler-type): every API server keeps a record of its
// advertise address that expires unless renewed (in etcd at
// /registry/masterleases/<ip>, with an etcd lease of 15 s renewed every
// 10 s), and the `kubernetes` Service's endpoints list the addresses whose
// records are alive. The host provides the storage (an etcd one for servers
// that share a cluster); a server alone on its store has none and lists
// only itself.

/** kube's DefaultEndpointReconcilerTTL. */
export const MASTER_LEASE_TTL_SECONDS = 15;
/** kube's DefaultEndpointReconcilerInterval. */
export const ENDPOINT_RECONCILER_INTERVAL_MS = 10_000;

export interface MasterLeases {
  /** Writes (or renews) the record of `ip`, alive for `ttlSeconds` from now. */
  update(ip: string, ttlSeconds: number): Promise<void>;
  /** The addresses with a live record, in any order. */
  list(): Promise<string[]>;
  /** Removes the record of `ip` (a server shutting down). */
  remove(ip: string): Promise<void>;
}
