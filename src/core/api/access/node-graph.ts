// The Node authorizer's graph (kube's node authorizer graph populator): which
// objects a node may reach through the pods bound to it — the pods
// themselves, their service accounts, Secrets, ConfigMaps, claims and the
// volumes bound to those claims. Kept in memory from the store's watch of
// pods and persistent volume claims; only pods with spec.nodeName count.

import type { NodeGraphVertex } from '../../auth';
import type { KeyValue, MvccStore, StoreEvent, WatchHandle } from '../../storage/types';

const PODS = '/registry/core/pods/';
const CLAIMS = '/registry/core/persistentvolumeclaims/';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(rec) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

interface PodEdges {
  readonly node: string;
  /** "<vertex>/<namespace>/<name>" of everything the pod references. */
  readonly edges: readonly string[];
}

/** Every Secret, ConfigMap, claim and service account a pod spec names (kube's visitPod*Names). */
export function podReferences(pod: Obj): { vertex: NodeGraphVertex; name: string }[] {
  const spec = rec(pod.spec);
  const podName = str(rec(pod.metadata).name);
  const out: { vertex: NodeGraphVertex; name: string }[] = [];
  const add = (vertex: NodeGraphVertex, name: string) => {
    if (name) out.push({ vertex, name });
  };
  add('serviceaccount', str(spec.serviceAccountName));
  for (const s of arr(spec.imagePullSecrets)) add('secret', str(s.name));
  for (const c of [...arr(spec.containers), ...arr(spec.initContainers), ...arr(spec.ephemeralContainers)]) {
    for (const from of arr(c.envFrom)) {
      add('secret', str(rec(from.secretRef).name));
      add('configmap', str(rec(from.configMapRef).name));
    }
    for (const env of arr(c.env)) {
      const source = rec(env.valueFrom);
      add('secret', str(rec(source.secretKeyRef).name));
      add('configmap', str(rec(source.configMapKeyRef).name));
    }
  }
  for (const v of arr(spec.volumes)) {
    add('secret', str(rec(v.secret).secretName));
    add('configmap', str(rec(v.configMap).name));
    for (const p of arr(rec(v.projected).sources)) {
      add('secret', str(rec(p.secret).name));
      add('configmap', str(rec(p.configMap).name));
    }
    for (const kind of ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'storageos', 'iscsi', 'csi']) {
      const source = rec(v[kind]);
      add('secret', str(rec(source.secretRef).name) || str(source.secretName) || str(rec(source.nodePublishSecretRef).name));
    }
    add('pvc', str(rec(v.persistentVolumeClaim).claimName));
    // A generic ephemeral volume's claim is named after the pod and the volume.
    if (v.ephemeral && podName) add('pvc', `${podName}-${str(v.name)}`);
  }
  for (const s of arr(rec(pod.status).resourceClaimStatuses)) add('resourceclaim', str(s.resourceClaimName));
  return out;
}

export interface NodeGraph {
  /** Resolves when the stored pods and claims are followed; the first ask starts it. */
  readonly ready: Promise<void>;
  isRelatedToNode(node: string, vertex: NodeGraphVertex, namespace: string, name: string): boolean;
  stop(): void;
}

export function createNodeGraph(store: MvccStore, decode: (kv: KeyValue) => unknown): NodeGraph {
  const pods = new Map<string, PodEdges>();
  /** node → edge → number of pods on that node holding it. */
  const byNode = new Map<string, Map<string, number>>();
  /** "<namespace>/<claim>" → bound volume name. */
  const claimVolumes = new Map<string, string>();
  const handles: WatchHandle[] = [];
  let stopped = false;

  const count = (node: string, edge: string, delta: number) => {
    let m = byNode.get(node);
    if (!m) byNode.set(node, (m = new Map()));
    const n = (m.get(edge) ?? 0) + delta;
    if (n > 0) m.set(edge, n);
    else m.delete(edge);
  };

  const parse = (kv: KeyValue): Obj | undefined => {
    try {
      return rec(decode(kv));
    } catch {
      return undefined;
    }
  };

  function applyPod(kv: KeyValue, deleted: boolean): void {
    const before = pods.get(kv.key);
    if (before) for (const e of before.edges) count(before.node, e, -1);
    pods.delete(kv.key);
    if (deleted) return;
    const pod = parse(kv);
    const node = str(rec(pod?.spec).nodeName);
    if (!pod || !node) return;
    const ns = str(rec(pod.metadata).namespace);
    const edges = [`pod/${ns}/${str(rec(pod.metadata).name)}`, ...podReferences(pod).map((r) => `${r.vertex}/${ns}/${r.name}`)];
    const unique = [...new Set(edges)];
    pods.set(kv.key, { node, edges: unique });
    for (const e of unique) count(node, e, 1);
  }

  function applyClaim(kv: KeyValue, deleted: boolean): void {
    const rest = kv.key.slice(CLAIMS.length);
    if (deleted) {
      claimVolumes.delete(rest);
      return;
    }
    const volume = str(rec(parse(kv)?.spec).volumeName);
    if (volume) claimVolumes.set(rest, volume);
    else claimVolumes.delete(rest);
  }

  async function follow(prefix: string, apply: (kv: KeyValue, deleted: boolean) => void): Promise<void> {
    const { kvs, revision } = await store.range({ prefix });
    for (const kv of kvs) apply(kv, false);
    if (stopped) return;
    handles.push(store.watch({ prefix, afterRevision: revision }, { onEvent: (e: StoreEvent) => apply(e.kv, e.type === 'delete') }));
  }

  // Started when first asked for (the Node authorizer's first decision). No
  // wait for the store's full load: its ranges at the current revision are
  // complete before it (docs/decisions/0131), and the watches carry on from there.
  let loading: Promise<void> | undefined;

  return {
    get ready() {
      return (loading ??= Promise.all([follow(PODS, applyPod), follow(CLAIMS, applyClaim)]).then(() => undefined));
    },
    isRelatedToNode(node, vertex, namespace, name) {
      const edges = byNode.get(node);
      if (!edges) return false;
      if (vertex === 'pv') {
        for (const edge of edges.keys()) {
          if (!edge.startsWith('pvc/')) continue;
          if (claimVolumes.get(edge.slice(4)) === name) return true;
        }
        return false;
      }
      return edges.has(`${vertex}/${namespace}/${name}`);
    },
    stop() {
      stopped = true;
      for (const h of handles.splice(0)) h.cancel();
    },
  };
}
