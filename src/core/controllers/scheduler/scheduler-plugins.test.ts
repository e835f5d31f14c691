// The default profile's plugins one by one, on NodeInfos built from API
// objects: each filter's verdict and reason text (kube-scheduler 1.32's
// wording), each score's arithmetic, the FitError message with its
// preemption part, and the pod requests NodeResourcesFit counts.

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kinds/types';
import { fitErrorMessage } from './fit-error';
import { defaultNormalize, runFilters, schedule, scoreNodes, type ClusterView, type Diagnosis } from './framework';
import { NodeInfo } from './node-info';
import { balancedAllocationScore, imageLocalityScore, leastAllocatedScore } from './node-resources';
import { podInfo } from './pod-info';
import { preempt } from './preemption';
import { podRequests } from './resources';

const SIZE = { cpu: '4', memory: '8Gi', pods: '110' };
const READY = [{ type: 'Ready', status: 'True' }];

function node(name: string, opts: { labels?: Record<string, string>; taints?: unknown[]; unschedulable?: boolean; allocatable?: Record<string, string>; ready?: string } = {}): KubeObject {
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(opts.labels ?? {}) } },
    spec: { ...(opts.taints ? { taints: opts.taints } : {}), ...(opts.unschedulable ? { unschedulable: true } : {}) },
    status: { allocatable: opts.allocatable ?? SIZE, conditions: [{ type: 'Ready', status: opts.ready ?? 'True' }] },
  };
}

let uid = 0;
function pod(name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}-${uid++}`, ...meta },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  };
}

const requests = (cpu: string, memory?: string) => ({ containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu, ...(memory ? { memory } : {}) } } }] });

function info(n: KubeObject, pods: KubeObject[] = []): NodeInfo {
  const i = new NodeInfo(n.metadata!.name!);
  i.setNode(n);
  for (const p of pods) i.addPod(podInfo({ ...p, spec: { ...(p.spec as Record<string, unknown>), nodeName: i.name } }));
  return i;
}

const objects = new Map<string, KubeObject>();
const view: ClusterView = {
  namespaceLabels: (ns) => ({ 'kubernetes.io/metadata.name': ns, ...(ns === 'team-a' ? { team: 'a' } : {}) }),
  claim: (ns, name) => objects.get(`pvc/${ns}/${name}`),
  volume: (name) => objects.get(`pv/${name}`),
  storageClass: (name) => objects.get(`sc/${name}`),
  services: () => [],
  replicaSet: (ns, name) => objects.get(`rs/${ns}/${name}`),
  statefulSet: () => undefined,
  replicationController: () => undefined,
};

const controlPlane = () => node('kubetab-control-plane', { labels: { 'node-role.kubernetes.io/control-plane': '' }, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] });
const kind = (workerPods: KubeObject[][] = [[], []]) => [info(controlPlane()), info(node('kubetab-worker'), workerPods[0]), info(node('kubetab-worker2'), workerPods[1])];

function messageFor(p: KubeObject, nodes: NodeInfo[]): string {
  const pi = podInfo(p);
  const decision = schedule(pi, nodes, view);
  if (decision.kind !== 'unschedulable') throw new Error(`expected no fit, got ${JSON.stringify(decision)}`);
  return fitErrorMessage(decision.diagnosis, preempt(pi, decision.diagnosis, nodes, view).message);
}

const reasonOn = (p: KubeObject, n: NodeInfo, nodes: NodeInfo[] = [n]) => {
  const r = runFilters(podInfo(p), nodes, view);
  return r.feasible.includes(n) ? undefined : (r.diagnosis.statuses.get(n.name)?.reasons ?? r.diagnosis.absent?.reasons)?.join(', ');
};

describe('pod requests', () => {
  it('sums containers, takes the larger of init containers (with earlier sidecars), adds sidecars and overhead', () => {
    const p = pod('p', {
      containers: [
        { name: 'a', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
        { name: 'b', resources: { requests: { cpu: '200m' } } },
      ],
      initContainers: [
        { name: 'sidecar', restartPolicy: 'Always', resources: { requests: { cpu: '50m', memory: '10Mi' } } },
        { name: 'migrate', resources: { requests: { cpu: '1', memory: '32Mi' } } },
      ],
      overhead: { cpu: '10m', memory: '1Mi' },
    });
    const r = podRequests(p);
    // cpu: max(100+200+50, 1000+50) + 10; memory: max(64+10, 32+10) + 1.
    expect([r.milliCPU, r.memory]).toEqual([1060, 75 * 2 ** 20]);
    const nonZero = podRequests(p, true);
    // b counts 200Mi memory for scoring; the init container max is smaller.
    expect([nonZero.milliCPU, nonZero.memory]).toEqual([1060, (64 + 200 + 10 + 1) * 2 ** 20]);
    expect(podRequests(pod('q', { containers: [{ name: 'c', resources: { requests: { cpu: '0.1' } } }] })).milliCPU).toBe(100);
  });
});

describe('filters', () => {
  it('NodeUnschedulable, TaintToleration and NodeAffinity in that order, with their reasons', () => {
    const p = pod('p', { nodeSelector: { zone: 'a' } });
    expect(reasonOn(p, info(node('n', { unschedulable: true, taints: [{ key: 'k', effect: 'NoSchedule' }] })))).toBe('node(s) were unschedulable');
    expect(reasonOn(p, info(node('n', { taints: [{ key: 'k', value: 'v', effect: 'NoExecute' }] })))).toBe('node(s) had untolerated taint {k: v}');
    expect(reasonOn(p, info(node('n', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] })))).toBe("node(s) didn't match Pod's node affinity/selector");
    expect(reasonOn(p, info(node('n', { labels: { zone: 'a' } })))).toBeUndefined();
    // A cordoned node takes a pod that tolerates node.kubernetes.io/unschedulable.
    expect(reasonOn(pod('t', { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }), info(node('n', { unschedulable: true })))).toBeUndefined();
    // No Ready condition: the node counts as unreachable.
    expect(reasonOn(pod('u'), info({ metadata: { name: 'x' }, spec: {}, status: { allocatable: SIZE } }))).toBe('node(s) had untolerated taint {node.kubernetes.io/unreachable: }');
  });

  it('required node affinity: terms are ORed, expressions ANDed, Gt/Lt numeric; matchFields narrows the candidates', () => {
    const affinity = (terms: unknown[]) => pod('p', { ...requests('200m'), affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } });
    const p = affinity([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }, { matchExpressions: [{ key: 'cpus', operator: 'Gt', values: ['4'] }] }]);
    expect(reasonOn(p, info(node('n', { labels: { zone: 'a', cpus: '8' } })))).toBeUndefined();
    expect(reasonOn(p, info(node('n', { labels: { zone: 'a', cpus: '2' } })))).toBe("node(s) didn't match Pod's node affinity/selector");
    // A DaemonSet pod's matchFields term: the other nodes are not even looked at.
    const daemon = affinity([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['kubetab-worker'] }] }]);
    const full = [info(controlPlane()), info(node('kubetab-worker'), [pod('big', requests('3900m'))]), info(node('kubetab-worker2'))];
    expect(messageFor(daemon, full)).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    );
  });

  it('NodeResourcesFit counts requests of the pods already on the node and the pod count', () => {
    const n = info(node('n', { allocatable: { cpu: '2', memory: '1Gi', pods: '2' } }), [pod('a', requests('1500m', '512Mi'))]);
    expect(reasonOn(pod('p', requests('600m', '600Mi')), n)).toBe('Insufficient cpu, Insufficient memory');
    expect(reasonOn(pod('p', requests('500m', '512Mi')), n)).toBeUndefined();
    n.addPod(podInfo(pod('b', { nodeName: 'n' })));
    // A pod without requests still needs a pod slot.
    expect(reasonOn(pod('p'), n)).toBe('Too many pods');
    expect(reasonOn(pod('g', { containers: [{ name: 'c', resources: { requests: { 'nvidia.com/gpu': '1' } } }] }), info(node('m')))).toBe('Insufficient nvidia.com/gpu');
  });

  it('NodePorts: a host port is taken per protocol; 0.0.0.0 conflicts with every address', () => {
    const web = (name: string, port: Record<string, unknown>) => pod(name, { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, ...port }] }] });
    const n = info(node('n'), [web('a', { hostPort: 8080 })]);
    expect(reasonOn(web('p', { hostPort: 8080 }), n)).toBe("node(s) didn't have free ports for the requested pod ports");
    expect(reasonOn(web('p', { hostPort: 8080, protocol: 'UDP' }), n)).toBeUndefined();
    expect(reasonOn(web('p', { hostPort: 8081 }), n)).toBeUndefined();
    expect(reasonOn(web('p', {}), n)).toBeUndefined();
    const pinned = info(node('m'), [web('a', { hostPort: 9000, hostIP: '10.0.0.1' })]);
    expect(reasonOn(web('p', { hostPort: 9000, hostIP: '10.0.0.2' }), pinned)).toBeUndefined();
    expect(reasonOn(web('p', { hostPort: 9000 }), pinned)).toBe("node(s) didn't have free ports for the requested pod ports");
  });

  it('InterPodAffinity: required affinity, anti-affinity and the existing pods’ anti-affinity', () => {
    const zoned = (name: string, zone: string, pods: KubeObject[] = []) => info(node(name, { labels: { zone } }), pods);
    const db = pod('db', {}, { labels: { app: 'db' } });
    const nodes = [zoned('a', 'z1', [db]), zoned('b', 'z2')];
    const term = (app: string, extra: Record<string, unknown> = {}) => ({ labelSelector: { matchLabels: { app } }, topologyKey: 'zone', ...extra });
    const withDb = pod('web', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('db')] } } }, { labels: { app: 'web' } });
    expect(reasonOn(withDb, nodes[0]!, nodes)).toBeUndefined();
    expect(reasonOn(withDb, nodes[1]!, nodes)).toBe("node(s) didn't match pod affinity rules");
    const awayFromDb = pod('cache', { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('db')] } } });
    expect(reasonOn(awayFromDb, nodes[0]!, nodes)).toBe("node(s) didn't match pod anti-affinity rules");
    expect(reasonOn(awayFromDb, nodes[1]!, nodes)).toBeUndefined();
    // An existing pod that wants no "app=batch" in its zone keeps them out.
    const loner = pod('loner', { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('batch')] } } });
    const withLoner = [zoned('a', 'z1', [loner]), zoned('b', 'z2')];
    const batch = pod('job', {}, { labels: { app: 'batch' } });
    expect(reasonOn(batch, withLoner[0]!, withLoner)).toBe("node(s) didn't satisfy existing pods anti-affinity rules");
    expect(reasonOn(batch, withLoner[1]!, withLoner)).toBeUndefined();
    // The first pod of a group with affinity to itself may go anywhere.
    const selfish = pod('s1', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('group')] } } }, { labels: { app: 'group' } });
    expect(reasonOn(selfish, nodes[1]!, nodes)).toBeUndefined();
    // Terms look in the pod's namespace unless they name others or select them.
    const elsewhere = pod('x', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('db', { namespaceSelector: { matchLabels: { team: 'a' } } })] } } });
    const teamDb = pod('db2', {}, { labels: { app: 'db' }, namespace: 'team-a' });
    const teamNodes = [zoned('a', 'z1'), zoned('b', 'z2', [teamDb])];
    expect(reasonOn(elsewhere, teamNodes[1]!, teamNodes)).toBeUndefined();
    expect(reasonOn(elsewhere, teamNodes[0]!, teamNodes)).toBe("node(s) didn't match pod affinity rules");
  });

  it('PodTopologySpread DoNotSchedule: skew against the least loaded domain, minDomains, missing labels', () => {
    const labels = { app: 'web' };
    const spread = (extra: Record<string, unknown> = {}) =>
      pod('p', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: labels }, ...extra }] }, { labels });
    const web = (n: string) => pod(n, {}, { labels });
    const nodes = [info(node('a', { labels: { zone: 'z1' } }), [web('w1')]), info(node('b', { labels: { zone: 'z2' } })), info(node('c'))];
    expect(reasonOn(spread(), nodes[0]!, nodes)).toBe("node(s) didn't match pod topology spread constraints");
    expect(reasonOn(spread(), nodes[1]!, nodes)).toBeUndefined();
    expect(reasonOn(spread(), nodes[2]!, nodes)).toBe("node(s) didn't match pod topology spread constraints (missing required label)");
    // With fewer domains than minDomains the global minimum counts as 0.
    const two = [info(node('a', { labels: { zone: 'z1' } })), info(node('b', { labels: { zone: 'z2' } }), [web('w1')])];
    expect(reasonOn(spread({ minDomains: 3 }), two[1]!, two)).toBe("node(s) didn't match pod topology spread constraints");
    expect(reasonOn(spread({ maxSkew: 2, minDomains: 3 }), two[1]!, two)).toBeUndefined();
  });

  it('VolumeBinding: missing and unbound immediate claims keep the pod off every node', () => {
    const withClaim = (claim: string) => pod('p', { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }] });
    expect(messageFor(withClaim('x'), kind())).toBe(
      '0/3 nodes are available: persistentvolumeclaim "x" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    objects.set('pvc/default/pending', { metadata: { name: 'pending', namespace: 'default' }, spec: { storageClassName: 'standard' } });
    objects.set('sc/standard', { metadata: { name: 'standard' }, volumeBindingMode: 'Immediate' });
    expect(messageFor(withClaim('pending'), kind())).toBe(
      '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    objects.set('pvc/default/later', { metadata: { name: 'later', namespace: 'default' }, spec: { storageClassName: 'local' } });
    objects.set('sc/local', { metadata: { name: 'local' }, volumeBindingMode: 'WaitForFirstConsumer' });
    const decision = schedule(podInfo(withClaim('later')), kind(), view);
    expect(decision.kind === 'bind' && decision.volumes.delayedClaims.map((c) => c.metadata?.name)).toEqual(['later']);
    objects.set('pvc/default/bound', { metadata: { name: 'bound', namespace: 'default' }, spec: { volumeName: 'pv-1' } });
    objects.set('pv/pv-1', { metadata: { name: 'pv-1' }, spec: { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['kubetab-worker2'] }] }] } } } });
    expect(messageFor(pod('q', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'bound' } }], nodeSelector: { 'kubernetes.io/hostname': 'kubetab-worker' } }), kind())).toBe(
      "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had volume node affinity conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
    const onBound = schedule(podInfo(pod('r', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'bound' } }] })), kind(), view);
    expect(onBound).toMatchObject({ kind: 'bind', node: 'kubetab-worker2' });
  });
});

describe('the FailedScheduling message', () => {
  it('counts reasons per node, sorts them as strings, and says what preemption found', () => {
    const full = [pod('a', requests('3500m'))];
    expect(messageFor(pod('p', requests('1')), kind([full, full]))).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
    expect(messageFor(pod('p', { ...requests('1'), preemptionPolicy: 'Never' }), kind([full, full]))).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
    // A pod too big for any node even when empty: still "no victims" (1.32 has no Unresolvable for that).
    expect(messageFor(pod('p', requests('5', '9Gi')), kind())).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
  });

  it('sorts "count reason" strings as Go sorts strings (10 before 2)', () => {
    const statuses = new Map<string, { code: 'Unschedulable'; reasons: string[]; plugin: string }>();
    for (let i = 0; i < 12; i++) statuses.set(`n${i}`, { code: 'Unschedulable', reasons: [i < 10 ? 'Insufficient cpu' : 'Too many pods'], plugin: 'NodeResourcesFit' });
    const d: Diagnosis = { numAllNodes: 12, statuses, plugins: new Set() };
    expect(fitErrorMessage(d)).toBe('0/12 nodes are available: 10 Insufficient cpu, 2 Too many pods.');
  });

  it('preemption: lower-priority pods whose eviction makes room are chosen as victims', () => {
    const low = pod('low', { ...requests('3'), priority: 0 });
    const high = pod('high', { ...requests('2'), priority: 1000 });
    const nodes = kind([[low], [pod('peer', { ...requests('3'), priority: 2000 })]]);
    const pi = podInfo(high);
    const decision = schedule(pi, nodes, view);
    expect(decision.kind).toBe('unschedulable');
    if (decision.kind !== 'unschedulable') return;
    const outcome = preempt(pi, decision.diagnosis, nodes, view);
    expect(outcome.candidate?.node).toBe('kubetab-worker');
    expect(outcome.candidate?.victims.map((v) => v.name)).toEqual(['low']);
    expect(fitErrorMessage(decision.diagnosis, outcome.message)).toBe('0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu.');
  });
});

describe('scores', () => {
  it('LeastAllocated and BalancedAllocation', () => {
    const n = info(node('n', { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } }), [pod('a', requests('1', '2Gi'))]);
    const p = podInfo(pod('p', requests('1', '1Gi')));
    // cpu (4000-2000)*100/4000 = 50, memory (8-3)*100/8 = 62 → (50+62)/2 = 56.
    expect(leastAllocatedScore(p, n)).toBe(56);
    // fractions 0.5 and 0.375 → std 0.0625 → 93.
    expect(balancedAllocationScore(p, n)).toBe(93);
    // No requests count as 100m and 200Mi when scoring.
    expect(leastAllocatedScore(podInfo(pod('q')), info(node('m')))).toBe(Math.trunc((Math.trunc((3900 * 100) / 4000) + Math.trunc(((8192 - 200) * 100) / 8192)) / 2));
  });

  it('ImageLocality counts images the node has, scaled by how many nodes have them', () => {
    const withImage = node('n');
    (withImage.status as Record<string, unknown>).images = [{ names: ['registry.example/big:1'], sizeBytes: 500 * 2 ** 20 }];
    const n = info(withImage);
    const p = podInfo(pod('p', { containers: [{ name: 'c', image: 'registry.example/big:1' }] }));
    // 500 MiB on 1 of 2 nodes → 250 MiB; (250-23)*100/(1000-23) = 23.
    expect(imageLocalityScore(p, n, () => 1, 2)).toBe(23);
    expect(imageLocalityScore(podInfo(pod('q')), n, () => 0, 2)).toBe(0);
  });

  it('TaintToleration prefers nodes without untolerated PreferNoSchedule taints; preferred node affinity adds weights', () => {
    const nodes = [info(node('a', { taints: [{ key: 'spot', effect: 'PreferNoSchedule' }] })), info(node('b'))];
    const scored = scoreNodes(podInfo(pod('p')), nodes, nodes, view);
    expect(scored.map((s) => s.byPlugin.TaintToleration)).toEqual([0, 100]);
    const preferA = pod('q', { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['a'] }] } }] } } });
    const scoredA = scoreNodes(podInfo(preferA), nodes, nodes, view);
    expect(scoredA.map((s) => s.byPlugin.NodeAffinity)).toEqual([100, 0]);
    expect(defaultNormalize([0, 0], true)).toEqual([100, 100]);
  });

  it('preferred pod affinity pulls the pod towards matching pods', () => {
    const cache = pod('cache', {}, { labels: { app: 'cache' } });
    const nodes = [info(node('a')), info(node('b'), [cache])];
    const p = pod('web', { affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, podAffinityTerm: { labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'kubernetes.io/hostname' } }] } } });
    expect(scoreNodes(podInfo(p), nodes, nodes, view).map((s) => s.byPlugin.InterPodAffinity)).toEqual([0, 100]);
    expect(schedule(podInfo(p), nodes, view)).toMatchObject({ kind: 'bind', node: 'b' });
  });

  it('default spreading sends a ReplicaSet’s next replica to the worker with fewer of them', () => {
    objects.set('rs/default/web-1', { metadata: { name: 'web-1', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } } } });
    const owned = (name: string) => pod(name, {}, { labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs', controller: true }] });
    // worker has two replicas, worker2 one plus an unrelated pod that makes it look busier by requests.
    // Raw scores: count × ln(2+2) + (maxSkew−1) rounded: 5 and 3; normalized 100×(5+3−s)/5.
    const busy = pod('other', requests('300m', '300Mi'));
    const nodes = kind([[owned('r1'), owned('r2')], [owned('r3'), busy]]);
    const scored = scoreNodes(podInfo(owned('r4')), nodes.slice(1), nodes, view);
    expect(scored.map((s) => s.byPlugin.PodTopologySpread)).toEqual([60, 100]);
    expect(schedule(podInfo(owned('r4')), nodes, view)).toMatchObject({ kind: 'bind', node: 'kubetab-worker2' });
  });

  it('ties go to the first node by name', () => {
    expect(schedule(podInfo(pod('p')), kind(), view)).toMatchObject({ kind: 'bind', node: 'kubetab-worker' });
  });
});
