// Issue 14, Tests and measurements: kubectl 1.32 against the Node server in
// its default set-up (kind's three nodes), driving kube-controller-manager's
// workload controllers as a user does and asserting what kubectl prints and
// what the API holds: a Deployment's rollout, image change, history, undo and
// scale; a Service's endpoints and EndpointSlices; Jobs that complete and
// that fail past their backoff limit; a StatefulSet with claims; DaemonSets;
// a CronJob firing when the clock reaches its minute; a HorizontalPodAutoscaler
// on metrics.k8s.io; a CSR approved and issued; drain against a
// PodDisruptionBudget. Long waits move the cluster's clock.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectl } from './testing/kubectl-runner';
import { startClusterKubectl, type ClusterKubectl } from './testing/cluster-kubectl';

const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('kubectl-cluster-workloads.test.ts: kubectl is not installed (not on PATH, KUBECTL unset): the kubectl tests are skipped.');

let cluster: ClusterKubectl;
const ok = (args: string[], input?: string) => cluster.ok(args, input);
const kubectl = (args: string[], input?: string) => cluster.run(args, input);
const jsonpath = (args: string[], path: string) => ok(['get', ...args, '-o', `jsonpath=${path}`]);
const words = (text: string) => text.split(/\s+/).filter(Boolean).sort();

/** Polls (real time, bounded) until check passes: for what controllers do within moments of a write. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const WORKERS = ['kubetab-worker', 'kubetab-worker2'];
const NODES = ['kubetab-control-plane', ...WORKERS];

describe.skipIf(!KUBECTL)('kubectl 1.32 and the workload controllers of the simulated cluster', () => {
  beforeAll(async () => {
    cluster = await startClusterKubectl(KUBECTL!, 'kubetab-cluster-workloads-');
    // As after `kind create cluster --wait`.
    await cluster.fastForward(cluster.ok(['wait', '--for=condition=Ready', 'nodes', '--all', '--timeout=60s']));
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('create deployment, then rollout status returns once every replica is available', async () => {
    expect(await ok(['create', 'deployment', 'web', '--image=nginx:1.26', '--replicas=3'])).toBe('deployment.apps/web created\n');
    const status = await cluster.fastForward(ok(['rollout', 'status', 'deployment/web', '--timeout=60s']));
    expect(status.trimEnd().split('\n').pop()).toBe('deployment "web" successfully rolled out');
    expect(await ok(['get', 'deployment', 'web'])).toMatch(/^web\s+3\/3\s+3\s+3\s+\S+$/m);
    const rs = await jsonpath(['replicasets', '-l', 'app=web'], '{.items[*].metadata.name}');
    expect(rs).toMatch(/^web-[a-z0-9]{8,10}$/);
    const hash = await jsonpath(['replicaset', rs], '{.metadata.labels.pod-template-hash}');
    expect(rs).toBe(`web-${hash}`);
    const pods = words(await jsonpath(['pods', '-l', 'app=web'], '{.items[*].metadata.name}'));
    expect(pods).toHaveLength(3);
    for (const pod of pods) expect(pod).toMatch(new RegExp(`^${rs}-[a-z0-9]{5}$`));
    const conditions = JSON.parse(await jsonpath(['deployment', 'web'], '{.status.conditions}')) as { type: string; status: string; reason: string }[];
    expect(conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['Available', 'True', 'MinimumReplicasAvailable'],
      ['Progressing', 'True', 'NewReplicaSetAvailable'],
    ]);
  });

  it('set image rolls out a new ReplicaSet; rollout history lists the revisions; rollout undo goes back', async () => {
    expect(await ok(['set', 'image', 'deployment/web', 'nginx=nginx:1.27'])).toBe('deployment.apps/web image updated\n');
    expect((await cluster.fastForward(ok(['rollout', 'status', 'deployment/web', '--timeout=60s']))).trimEnd().split('\n').pop()).toBe('deployment "web" successfully rolled out');
    expect(words(await jsonpath(['pods', '-l', 'app=web'], '{.items[*].spec.containers[0].image}'))).toEqual(['nginx:1.27', 'nginx:1.27', 'nginx:1.27']);
    expect(await ok(['rollout', 'history', 'deployment/web'])).toBe('deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n');
    expect(await ok(['rollout', 'history', 'deployment/web', '--revision=2'])).toMatch(/^ {4}Image:\s+nginx:1\.27$/m);
    expect(await ok(['get', 'replicasets', '-l', 'app=web'])).toMatch(/^web-\S+\s+0\s+0\s+0\s+\S+$/m);

    expect(await ok(['rollout', 'undo', 'deployment/web'])).toBe('deployment.apps/web rolled back\n');
    expect((await ok(['rollout', 'status', 'deployment/web', '--timeout=60s'])).trimEnd().split('\n').pop()).toBe('deployment "web" successfully rolled out');
    expect(await jsonpath(['deployment', 'web'], '{.spec.template.spec.containers[0].image}')).toBe('nginx:1.26');
    expect(await jsonpath(['deployment', 'web'], '{.metadata.annotations.deployment\\.kubernetes\\.io/revision}')).toBe('3');
    expect(await ok(['rollout', 'history', 'deployment/web'])).toBe('deployment.apps/web \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n');
    expect(words(await jsonpath(['pods', '-l', 'app=web'], '{.items[*].spec.containers[0].image}'))).toEqual(['nginx:1.26', 'nginx:1.26', 'nginx:1.26']);
  });

  it('scale changes the replicas through the scale subresource and bumps metadata.generation', async () => {
    const before = Number(await jsonpath(['deployment', 'web'], '{.metadata.generation}'));
    expect(await ok(['scale', 'deployment/web', '--replicas=5'])).toBe('deployment.apps/web scaled\n');
    expect(Number(await jsonpath(['deployment', 'web'], '{.metadata.generation}'))).toBe(before + 1);
    await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    expect(Number(await jsonpath(['deployment', 'web'], '{.status.observedGeneration}'))).toBe(before + 1);
    expect(await ok(['get', 'deployment', 'web'])).toMatch(/^web\s+5\/5\s+5\s+5\s+\S+$/m);
    const scale = JSON.parse(await ok(['get', '--raw', '/apis/apps/v1/namespaces/default/deployments/web/scale']));
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 5 }, status: { replicas: 5, selector: 'app=web' } });
  });

  it('expose gives the Service endpoints and an EndpointSlice holding the ready pods\' IPs', async () => {
    expect(await ok(['expose', 'deployment/web', '--port=80'])).toBe('service/web exposed\n');
    const podIPs = words(await jsonpath(['pods', '-l', 'app=web'], '{.items[*].status.podIP}'));
    expect(podIPs).toHaveLength(5);
    expect(await eventually(async () => words(await jsonpath(['endpoints', 'web'], '{.subsets[*].addresses[*].ip}')).length === 5)).toBe(true);
    expect(words(await jsonpath(['endpoints', 'web'], '{.subsets[*].addresses[*].ip}'))).toEqual(podIPs);
    expect(await jsonpath(['endpoints', 'web'], '{.subsets[0].ports[0].port}')).toBe('80');
    expect(await ok(['get', 'endpoints', 'web'])).toMatch(/^web\s+(10\.244\.\d+\.\d+:80,){2}10\.244\.\d+\.\d+:80 \+ 2 more\.\.\.\s+\S+$/m);

    expect(await eventually(async () => words(await jsonpath(['endpointslices', '-l', 'kubernetes.io/service-name=web'], '{.items[*].endpoints[*].addresses[0]}')).length === 5)).toBe(true);
    const slices = JSON.parse(await ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '-o', 'json'])).items as {
      addressType: string;
      metadata: { name: string; labels: Record<string, string> };
      endpoints: { addresses: string[]; conditions: Record<string, boolean>; nodeName: string; targetRef: { kind: string } }[];
      ports: { port: number; protocol: string }[];
    }[];
    expect(slices).toHaveLength(1);
    const [slice] = slices;
    expect(slice!.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(slice!.metadata.labels['endpointslice.kubernetes.io/managed-by']).toBe('endpointslice-controller.k8s.io');
    expect(slice!.addressType).toBe('IPv4');
    expect(slice!.ports).toEqual([{ name: '', port: 80, protocol: 'TCP' }]);
    expect(slice!.endpoints.map((e) => e.addresses[0]).sort()).toEqual(podIPs);
    for (const e of slice!.endpoints) {
      expect(e.conditions).toEqual({ ready: true, serving: true, terminating: false });
      expect(WORKERS).toContain(e.nodeName);
      expect(e.targetRef.kind).toBe('Pod');
    }
    expect(await ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web'])).toMatch(/^web-\S+\s+IPv4\s+80\s+(10\.244\.\d+\.\d+,){2}10\.244\.\d+\.\d+ \+ 2 more\.\.\.\s+\S+$/m);
  });

  it('create job, wait --for=condition=complete, then logs job/… prints the pod\'s output', async () => {
    expect(await ok(['create', 'job', 'pi', '--image=busybox:1.36', '--', 'sh', '-c', 'echo computing; echo 3.14159'])).toBe('job.batch/pi created\n');
    expect(await ok(['wait', '--for=condition=complete', 'job/pi', '--timeout=30s'])).toBe('job.batch/pi condition met\n');
    expect(await ok(['logs', 'job/pi'])).toBe('computing\n3.14159\n');
    expect(await ok(['get', 'job', 'pi'])).toMatch(/^pi\s+Complete\s+1\/1\s+\S+\s+\S+$/m);
    expect(await jsonpath(['job', 'pi'], '{.status.succeeded}')).toBe('1');
    const pod = await jsonpath(['pods', '-l', 'batch.kubernetes.io/job-name=pi'], '{.items[*].metadata.name}');
    expect(pod).toMatch(/^pi-[a-z0-9]{5}$/);
    expect(await ok(['get', 'pod', pod])).toMatch(/\s+0\/1\s+Completed\s+0\s+/);
    const conditions = JSON.parse(await jsonpath(['job', 'pi'], '{.status.conditions}')) as { type: string; status: string }[];
    expect(conditions.map((c) => [c.type, c.status])).toEqual([
      ['SuccessCriteriaMet', 'True'],
      ['Complete', 'True'],
    ]);
  });

  it('a Job whose pods keep failing ends Failed with BackoffLimitExceeded once the clock passes its back-offs', async () => {
    await ok(
      ['apply', '-f', '-'],
      `apiVersion: batch/v1
kind: Job
metadata:
  name: doomed
spec:
  backoffLimit: 2
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: doomed
        image: busybox:1.36
        command: ["sh", "-c", "echo giving up; exit 2"]
`,
    );
    const failedPods = async () => Number((await jsonpath(['job', 'doomed'], '{.status.failed}')) || '0');
    expect(await eventually(async () => (await failedPods()) === 1)).toBe(true);
    // Each new pod waits out the controller's back-off (10 s, then 20 s).
    const finished = await cluster.advanceUntil(async () => (await jsonpath(['job', 'doomed'], '{.status.conditions[?(@.type=="Failed")].status}')) === 'True', 120_000, 2000);
    expect(finished).toBe(true);
    expect(await ok(['wait', '--for=condition=failed', 'job/doomed', '--timeout=10s'])).toBe('job.batch/doomed condition met\n');
    expect(await failedPods()).toBe(3);
    expect(await jsonpath(['job', 'doomed'], '{.status.conditions[?(@.type=="Failed")].reason}')).toBe('BackoffLimitExceeded');
    expect(await jsonpath(['job', 'doomed'], '{.status.conditions[?(@.type=="Failed")].message}')).toBe('Job has reached the specified backoff limit');
    expect(await ok(['get', 'job', 'doomed'])).toMatch(/^doomed\s+Failed\s+0\/1\s+\S+\s+\S+$/m);
    const pods = (await ok(['get', 'pods', '-l', 'job-name=doomed', '--no-headers'])).trimEnd().split('\n');
    expect(pods).toHaveLength(3);
    for (const line of pods) expect(line).toMatch(/^doomed-[a-z0-9]{5}\s+0\/1\s+Error\s+0\s+\S+$/);
    const events = await ok(['get', 'events', '--field-selector', 'involvedObject.name=doomed', '-o', 'jsonpath={range .items[*]}{.type} {.reason}: {.message}{"\\n"}{end}']);
    expect(events).toContain('Warning BackoffLimitExceeded: Job has reached the specified backoff limit\n');
    expect(events.match(/^Normal SuccessfulCreate: Created pod: doomed-[a-z0-9]{5}$/gm)).toHaveLength(3);
    expect(await ok(['logs', 'job/doomed'])).toBe('giving up\n');
  });

  it('a StatefulSet runs ordinal pods with stable hostnames, each with its own bound claim', async () => {
    await ok(
      ['apply', '-f', '-'],
      `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 2
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
      - name: redis
        image: redis:7.4
        volumeMounts:
        - name: data
          mountPath: /data
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests:
          storage: 1Gi
`,
    );
    const status = await cluster.fastForward(ok(['rollout', 'status', 'statefulset/db', '--timeout=60s']));
    expect(status.trimEnd().split('\n').pop()).toBe('partitioned roll out complete: 2 new pods have been updated...');
    expect(await ok(['get', 'statefulset', 'db'])).toMatch(/^db\s+2\/2\s+\S+$/m);
    expect(words(await jsonpath(['pods', '-l', 'app=db'], '{.items[*].metadata.name}'))).toEqual(['db-0', 'db-1']);
    expect(await ok(['exec', 'db-1', '--', 'hostname'])).toBe('db-1\n');
    const claims = (await ok(['get', 'pvc', '--no-headers'])).trimEnd().split('\n');
    expect(claims.map((l) => l.split(/\s+/).slice(0, 2))).toEqual([
      ['data-db-0', 'Bound'],
      ['data-db-1', 'Bound'],
    ]);
    for (const line of claims) expect(line).toMatch(/\s+pvc-[0-9a-f-]{36}\s+1Gi\s+RWO\s+standard\s+/);
    expect(await jsonpath(['pod', 'db-0'], '{.spec.volumes[?(@.name=="data")].persistentVolumeClaim.claimName}')).toBe('data-db-0');
    const revision = await jsonpath(['statefulset', 'db'], '{.status.updateRevision}');
    expect(revision).toMatch(/^db-[a-z0-9]+$/);
    expect(await jsonpath(['pod', 'db-0'], '{.metadata.labels.controller-revision-hash}')).toBe(revision);
  });

  it('a DaemonSet runs one pod on every eligible node: the workers, and the control plane too when it tolerates its taint', async () => {
    const daemonSet = (name: string, tolerations = '') => `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ${name}
spec:
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
${tolerations}      containers:
      - name: agent
        image: busybox:1.36
        command: ["sh", "-c", "while true; do echo tick; sleep 10; done"]
`;
    await ok(['apply', '-f', '-'], daemonSet('agent'));
    expect((await ok(['rollout', 'status', 'daemonset/agent', '--timeout=60s'])).trimEnd().split('\n').pop()).toBe('daemon set "agent" successfully rolled out');
    expect(await ok(['get', 'daemonset', 'agent'])).toMatch(/^agent\s+2\s+2\s+2\s+2\s+2\s+<none>\s+\S+$/m);
    expect(words(await jsonpath(['pods', '-l', 'app=agent'], '{.items[*].spec.nodeName}'))).toEqual(WORKERS);

    await ok(['apply', '-f', '-'], daemonSet('everywhere', '      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n'));
    await ok(['rollout', 'status', 'daemonset/everywhere', '--timeout=60s']);
    expect(await ok(['get', 'daemonset', 'everywhere'])).toMatch(/^everywhere\s+3\s+3\s+3\s+3\s+3\s+<none>\s+\S+$/m);
    expect(words(await jsonpath(['pods', '-l', 'app=everywhere'], '{.items[*].spec.nodeName}'))).toEqual(NODES);
    expect(await ok(['logs', '-l', 'app=everywhere', '--prefix=false', '--tail=1'])).toBe('tick\ntick\ntick\n');
  });

  it('a CronJob fires when the clock reaches its next minute, and its Job completes', async () => {
    expect(await ok(['create', 'cronjob', 'tick', '--image=busybox:1.36', '--schedule=*/1 * * * *', '--', 'echo', 'tick tock'])).toBe('cronjob.batch/tick created\n');
    expect(await ok(['get', 'cronjob', 'tick'])).toMatch(/^tick\s+\*\/1 \* \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\S+$/m);
    const fired = await cluster.advanceUntil(async () => (await jsonpath(['jobs'], '{.items[?(@.metadata.ownerReferences[0].name=="tick")].metadata.name}')) !== '', 61_000, 2000);
    expect(fired).toBe(true);
    const job = await jsonpath(['jobs'], '{.items[?(@.metadata.ownerReferences[0].name=="tick")].metadata.name}');
    const scheduled = await jsonpath(['cronjob', 'tick'], '{.status.lastScheduleTime}');
    expect(scheduled).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
    // Named after the scheduled minute, as the controller names it.
    expect(job).toBe(`tick-${Date.parse(scheduled) / 60_000}`);
    expect(await ok(['wait', '--for=condition=complete', `job/${job}`, '--timeout=30s'])).toBe(`job.batch/${job} condition met\n`);
    expect(await ok(['logs', `job/${job}`])).toBe('tick tock\n');
    const events = await ok(['get', 'events', '--field-selector', 'involvedObject.name=tick', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
    expect(events).toContain(`SuccessfulCreate: Created job ${job}\n`);
    expect(await eventually(async () => (await jsonpath(['cronjob', 'tick'], '{.status.lastSuccessfulTime}')) !== '')).toBe(true);
    expect(await ok(['get', 'cronjob', 'tick'])).toMatch(/^tick\s+\*\/1 \* \* \* \*\s+<none>\s+False\s+0\s+\S+\s+\S+$/m);
  });

  it('autoscale creates a HorizontalPodAutoscaler that reads the pods\' CPU from metrics.k8s.io', async () => {
    await ok(['create', 'deployment', 'scaled', '--image=nginx:1.26']);
    await ok(['set', 'resources', 'deployment/scaled', '--requests=cpu=100m']);
    await cluster.fastForward(ok(['rollout', 'status', 'deployment/scaled', '--timeout=60s']));
    expect(await ok(['autoscale', 'deployment', 'scaled', '--cpu-percent=50', '--min=1', '--max=3'])).toBe('horizontalpodautoscaler.autoscaling/scaled autoscaled\n');
    // The controller syncs every 15 s, with what metrics-server has seen.
    const measured = await cluster.advanceUntil(async () => /cpu: \d+%\/50%/.test(await ok(['get', 'hpa', 'scaled'])), 60_000, 5000);
    expect(measured).toBe(true);
    expect(await ok(['get', 'hpa', 'scaled'])).toMatch(/^scaled\s+Deployment\/scaled\s+cpu: \d+%\/50%\s+1\s+3\s+1\s+\S+$/m);
    const conditions = JSON.parse(await jsonpath(['hpa', 'scaled'], '{.status.conditions}')) as { type: string; status: string; reason: string }[];
    expect(conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['AbleToScale', 'True', 'ReadyForNewScale'],
      ['ScalingActive', 'True', 'ValidMetricFound'],
      ['ScalingLimited', 'False', 'DesiredWithinRange'],
    ]);
  });

  it('certificate approve: a CSR for the kube-apiserver-client signer ends Approved,Issued, and its certificate authenticates', async () => {
    const dir = cluster.server.dir;
    execFileSync('openssl', ['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'jane.key', '-subj', '/O=devs/CN=jane', '-out', 'jane.csr'], { cwd: dir, stdio: 'ignore' });
    const request = readFileSync(join(dir, 'jane.csr')).toString('base64');
    await ok(
      ['apply', '-f', '-'],
      `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: jane
spec:
  request: ${request}
  signerName: kubernetes.io/kube-apiserver-client
  usages: [client auth]
`,
    );
    expect(await ok(['get', 'csr', 'jane'])).toMatch(/^jane\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+kubernetes-admin\s+<none>\s+Pending$/m);
    expect(await ok(['certificate', 'approve', 'jane'])).toBe('certificatesigningrequest.certificates.k8s.io/jane approved\n');
    expect(await eventually(async () => (await jsonpath(['csr', 'jane'], '{.status.certificate}')) !== '')).toBe(true);
    expect(await ok(['get', 'csr', 'jane'])).toMatch(/^jane\s+.*\s+Approved,Issued$/m);
    writeFileSync(join(dir, 'jane.crt'), Buffer.from(await jsonpath(['csr', 'jane'], '{.status.certificate}'), 'base64'));
    await ok(['config', 'set-credentials', 'jane', `--client-certificate=${join(dir, 'jane.crt')}`, `--client-key=${join(dir, 'jane.key')}`, '--embed-certs=true']);
    const whoami = await ok(['--user=jane', 'auth', 'whoami']);
    expect(whoami).toMatch(/^Username\s+jane$/m);
    expect(whoami).toMatch(/^Groups\s+\[devs system:authenticated\]$/m);
  });

  it('drain is held back by a PodDisruptionBudget, and goes through once the budget allows it', async () => {
    expect(await ok(['create', 'deployment', 'guarded', '--image=nginx:1.26', '--replicas=2'])).toBe('deployment.apps/guarded created\n');
    await cluster.fastForward(ok(['rollout', 'status', 'deployment/guarded', '--timeout=60s']));
    expect(await ok(['create', 'poddisruptionbudget', 'guarded', '--selector=app=guarded', '--min-available=2'])).toBe('poddisruptionbudget.policy/guarded created\n');
    expect(await eventually(async () => (await jsonpath(['pdb', 'guarded'], '{.status.currentHealthy}')) === '2')).toBe(true);
    expect(await ok(['get', 'pdb', 'guarded'])).toMatch(/^guarded\s+2\s+N\/A\s+0\s+\S+$/m);
    const node = (await jsonpath(['pods', '-l', 'app=guarded'], '{.items[0].spec.nodeName}'));
    expect(WORKERS).toContain(node);

    const blocked = await kubectl(['drain', node, '--pod-selector=app=guarded', '--timeout=3s']);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toContain(`node/${node} cordoned\n`);
    expect(blocked.stderr).toMatch(/error when evicting pods\/"guarded-[a-z0-9-]+" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./);
    expect(blocked.stderr).toContain('global timeout reached: 3s');
    expect(await ok(['get', 'node', node])).toMatch(new RegExp(`^${node}\\s+Ready,SchedulingDisabled\\s+<none>\\s+\\S+\\s+v1\\.32\\.0$`, 'm'));
    expect(words(await jsonpath(['pods', '-l', 'app=guarded'], '{.items[*].status.phase}'))).toEqual(['Running', 'Running']);

    await ok(['patch', 'pdb', 'guarded', '--type=merge', '-p', '{"spec":{"minAvailable":1}}']);
    expect(await eventually(async () => (await jsonpath(['pdb', 'guarded'], '{.status.disruptionsAllowed}')) === '1')).toBe(true);
    const drained = await ok(['drain', node, '--pod-selector=app=guarded', '--timeout=30s']);
    expect(drained).toMatch(/^pod\/guarded-[a-z0-9-]+ evicted$/m);
    expect(drained.trimEnd().split('\n').pop()).toBe(`node/${node} drained`);
    await ok(['rollout', 'status', 'deployment/guarded', '--timeout=60s']);
    const other = WORKERS.find((w) => w !== node)!;
    expect(words(await jsonpath(['pods', '-l', 'app=guarded'], '{.items[*].spec.nodeName}'))).toEqual([other, other]);
    expect(await ok(['uncordon', node])).toBe(`node/${node} uncordoned\n`);
  });
});
