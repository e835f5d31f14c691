// The controllers a 1.32 cluster runs in the background (kube-controller-
// manager's, and kube-apiserver's own bootstrap controllers), running inside
// KubeTab. Each is a client of the API: it reaches the server only through
// `send`, with list + watch, and never blocks a request.
//
// Names follow kube-controller-manager's --controllers flag: `enabled` lists
// controller names (or their short aliases), '*' for all that are on by
// default, '-name' to leave one out; absent means '*'. As in kube, the
// bootstrap signer and the token cleaner are off by default (and so is
// KubeTab's stand-in for kubeadm's cluster-info); KubeTab's hosts run
// KUBEADM_CONTROLLERS, the set a kubeadm cluster runs (docs/decisions/0190).
//
// Each kube-controller-manager controller acts as its own service account
// (--use-service-account-credentials, which kubeadm sets): the account is
// created in kube-system when the controller starts, as kube's client
// builder does, and the controller's requests carry its name.

import type { Clock } from '../clock';
import { ApiClient, type Send } from './client/api-client';
import { CONTROLLER_MANAGER_RATE, SCHEDULER_RATE, type RateLimit } from './client/rate-limiter';
import { Activity } from './runtime/activity';
import type { Controller, ControllerContext, ControllerFactory } from './runtime/controller';
import { SharedInformers } from './runtime/shared-informers';
import { namespaceController, NAMESPACE_CONTROLLER } from './namespace/namespace-controller';
import { garbageCollector, GARBAGE_COLLECTOR } from './garbage-collector/garbage-collector';
import { serviceAccountController, SERVICE_ACCOUNT_CONTROLLER } from './service-account/service-account-controller';
import { resourceQuotaController, RESOURCE_QUOTA_CONTROLLER } from './resource-quota/resource-quota-controller';
import { rootCAPublisher, ROOT_CA_PUBLISHER, type RootCAOptions } from './root-ca/root-ca-publisher';
import { bootstrapController, BOOTSTRAP_CONTROLLER, type BootstrapOptions } from './bootstrap/bootstrap-controller';
import { podTerminationController, POD_TERMINATION_CONTROLLER } from './pod-termination/pod-termination-controller';
import { schedulerController, SCHEDULER_CONTROLLER } from './scheduler/scheduler-controller';
import { clusterRoleAggregationController, CLUSTERROLE_AGGREGATION_CONTROLLER } from './clusterrole-aggregation/clusterrole-aggregation-controller';
import { tokenCleanerController, TOKEN_CLEANER_CONTROLLER } from './token-cleaner/token-cleaner-controller';
import { bootstrapSignerController, BOOTSTRAP_SIGNER_CONTROLLER } from './bootstrap-signer/bootstrap-signer-controller';
import { clusterInfoController, CLUSTER_INFO_CONTROLLER, type ClusterInfoOptions } from './kubeadm/cluster-info';
import { jobController, JOB_CONTROLLER } from './job/job-controller';
import { cronJobController, CRONJOB_CONTROLLER } from './cronjob/cronjob-controller';
import { ttlAfterFinishedController, TTL_AFTER_FINISHED_CONTROLLER } from './ttl-after-finished/ttl-after-finished-controller';
import { podGCController, POD_GC_CONTROLLER } from './pod-gc/pod-gc-controller';
import { DEFAULT_ENDPOINT } from './bootstrap/bootstrap-controller';
import { replicaSetController, replicationControllerController } from './replicaset/replica-set-controller';
import { REPLICASET_CONTROLLER, REPLICATIONCONTROLLER_CONTROLLER } from './replicaset/replica-kinds';
import { statefulSetController, STATEFUL_SET_CONTROLLER } from './statefulset/statefulset-controller';
import { daemonSetController, DAEMON_SET_CONTROLLER } from './daemonset/daemonset-controller';
import { deploymentController, DEPLOYMENT_CONTROLLER } from './deployment/deployment-controller';
import { ensureServiceAccounts } from './runtime/controller-service-accounts';
import { apfConfigurationController, APF_CONFIGURATION_CONTROLLER } from './apf-configuration/apf-configuration-controller';
import { ClockTimers } from '../util/clock-timers';
import { EventRecorder } from './runtime/event-recorder';
import { nodeLifecycleController, NODE_LIFECYCLE_CONTROLLER } from './node-lifecycle/node-lifecycle-controller';
import { taintEvictionController, TAINT_EVICTION_CONTROLLER } from './node-lifecycle/taint-eviction-controller';
import { nodeIpamController, NODE_IPAM_CONTROLLER, type NodeIpamOptions } from './node-lifecycle/node-ipam-controller';
import { ttlController, TTL_CONTROLLER } from './node-lifecycle/ttl-controller';
import { kubeadmAddonsController, KUBEADM_ADDONS_CONTROLLER } from './kubeadm/addons';
import { persistentVolumeBinder, PV_BINDER_CONTROLLER } from './persistentvolume/pv-controller';
import { localPathProvisioner, LOCAL_PATH_PROVISIONER_CONTROLLER } from './persistentvolume/local-path-provisioner';
import { pvcProtectionController, PVC_PROTECTION_CONTROLLER } from './volume-protection/pvc-protection-controller';
import { pvProtectionController, PV_PROTECTION_CONTROLLER } from './volume-protection/pv-protection-controller';
import { csrSigningController, CSR_SIGNING_CONTROLLER } from './csr/csr-signing-controller';
import { csrApprovingController, CSR_APPROVING_CONTROLLER } from './csr/csr-approving-controller';
import { csrCleanerController, CSR_CLEANER_CONTROLLER } from './csr/csr-cleaner-controller';
import type { ClusterSigningOptions } from './csr/signing-ca';
import { serviceAccountTokenController, SERVICE_ACCOUNT_TOKEN_CONTROLLER, type LegacyTokenIssuer } from './legacy-sa-token/tokens-controller';
import { legacyTokenTrackingController, LEGACY_TOKEN_TRACKING_CONTROLLER } from './legacy-sa-token/token-tracking-controller';
import { legacyTokenCleaner, LEGACY_TOKEN_CLEANER_CONTROLLER } from './legacy-sa-token/legacy-token-cleaner';
import { apiServiceRegistrationController, APISERVICE_REGISTRATION_CONTROLLER } from './bootstrap/apiservice-registration';
import { horizontalPodAutoscalerController, HPA_CONTROLLER } from './podautoscaler/hpa-controller';
import { endpointsController, ENDPOINTS_CONTROLLER } from './endpoints/endpoints-controller';
import { endpointSliceController, ENDPOINTSLICE_CONTROLLER } from './endpointslice/endpointslice-controller';
import { endpointSliceMirroringController, ENDPOINTSLICE_MIRRORING_CONTROLLER } from './endpointslice-mirroring/mirroring-controller';
import { disruptionController, DISRUPTION_CONTROLLER } from './disruption/disruption-controller';

export interface StartControllersOptions {
  /** The server, authenticated as the identity the controllers run as. */
  readonly send: Send;
  readonly clock: Clock;
  /** Controller names as kube-controller-manager's --controllers takes them (default: '*', which leaves out the controllers kube disables by default). */
  readonly enabled?: readonly string[];
  /** Where controllers report what they could not do (default: console.info). */
  readonly log?: (message: string) => void;
  /** Origin for request URLs (the server only reads paths). */
  readonly baseUrl?: string;
  /** Root-CA publisher: where the cluster CA certificate comes from. */
  readonly rootCA?: RootCAOptions;
  /** kube-apiserver's bootstrap objects: addresses and names. */
  readonly bootstrap?: BootstrapOptions;
  /** kubeadm's cluster-info ConfigMap: the server URL and CA it names. */
  readonly clusterInfo?: ClusterInfoOptions;
  /** How often controllers waiting for a time of the Clock re-read it (default 1 s; tests pass less). */
  readonly clockPollMs?: number;
  /** The CSR signer's CA (--cluster-signing-cert-file/--cluster-signing-key-file) and --cluster-signing-duration; no CA: no signer. */
  readonly clusterSigning?: ClusterSigningOptions;
  /** Signs legacy service-account tokens with the server's key (--service-account-private-key-file); absent: no token controller. */
  readonly serviceAccountTokens?: LegacyTokenIssuer;
  /** The node-ipam controller's --cluster-cidr and --node-cidr-mask-size (default: kind's 10.244.0.0/16 in /24s). */
  readonly nodeIpam?: NodeIpamOptions;
}

/** The controllers of a kubeadm cluster: kube-controller-manager --controllers=*,bootstrapsigner,tokencleaner, kubeadm's cluster-info and add-ons, and kind's local-path provisioner. */
export const KUBEADM_CONTROLLERS: readonly string[] = Object.freeze(['*', 'bootstrapsigner', 'tokencleaner', CLUSTER_INFO_CONTROLLER, KUBEADM_ADDONS_CONTROLLER, LOCAL_PATH_PROVISIONER_CONTROLLER]);

export interface RunningControllers {
  /** Stops every controller and its watches. */
  stop(): Promise<void>;
  /** Resolves when every controller has processed every event it has seen so far. */
  idle(): Promise<void>;
}

interface Registration {
  readonly name: string;
  readonly aliases: readonly string[];
  /** kube-controller-manager's service account the controller acts as (for its User-Agent). */
  readonly serviceAccount?: string;
  readonly component: 'kube-controller-manager' | 'kube-apiserver' | 'kube-scheduler' | 'kubelet' | 'kubeadm' | 'local-path-provisioner';
  /** Left out of '*' (kube's ControllersDisabledByDefault); named explicitly to run. */
  readonly disabledByDefault?: boolean;
  readonly factory: (ctx: ControllerContext, options: StartControllersOptions) => Controller;
}

const REGISTRY: readonly Registration[] = [
  { name: BOOTSTRAP_CONTROLLER, aliases: ['bootstrap'], component: 'kube-apiserver', factory: (ctx, o) => bootstrapController(ctx, o.bootstrap) },
  // kube-apiserver's APF configuration controller: each FlowSchema's Dangling condition.
  { name: APF_CONFIGURATION_CONTROLLER, aliases: [], component: 'kube-apiserver', factory: (ctx) => apfConfigurationController(ctx) },
  // kube-apiserver's APIServices (autoregister, CRD registration, Local availability; docs/decisions/0353).
  { name: APISERVICE_REGISTRATION_CONTROLLER, aliases: [], component: 'kube-apiserver', factory: (ctx) => apiServiceRegistrationController(ctx) },
  { name: NAMESPACE_CONTROLLER, aliases: ['namespace'], serviceAccount: 'namespace-controller', component: 'kube-controller-manager', factory: (ctx) => namespaceController(ctx) },
  { name: GARBAGE_COLLECTOR, aliases: ['garbagecollector'], serviceAccount: 'generic-garbage-collector', component: 'kube-controller-manager', factory: (ctx) => garbageCollector(ctx) },
  { name: SERVICE_ACCOUNT_CONTROLLER, aliases: ['serviceaccount'], serviceAccount: 'service-account-controller', component: 'kube-controller-manager', factory: (ctx) => serviceAccountController(ctx) },
  { name: RESOURCE_QUOTA_CONTROLLER, aliases: ['resourcequota'], serviceAccount: 'resourcequota-controller', component: 'kube-controller-manager', factory: (ctx) => resourceQuotaController(ctx) },
  { name: ROOT_CA_PUBLISHER, aliases: ['root-ca-cert-publisher'], serviceAccount: 'root-ca-cert-publisher', component: 'kube-controller-manager', factory: (ctx, o) => rootCAPublisher(ctx, o.rootCA) },
  { name: DEPLOYMENT_CONTROLLER, aliases: ['deployment'], serviceAccount: 'deployment-controller', component: 'kube-controller-manager', factory: (ctx) => deploymentController(ctx) },
  { name: REPLICASET_CONTROLLER, aliases: ['replicaset'], serviceAccount: 'replicaset-controller', component: 'kube-controller-manager', factory: (ctx) => replicaSetController(ctx) },
  { name: STATEFUL_SET_CONTROLLER, aliases: ['statefulset'], serviceAccount: 'statefulset-controller', component: 'kube-controller-manager', factory: (ctx) => statefulSetController(ctx) },
  { name: DAEMON_SET_CONTROLLER, aliases: ['daemonset'], serviceAccount: 'daemon-set-controller', component: 'kube-controller-manager', factory: (ctx) => daemonSetController(ctx) },
  {
    name: REPLICATIONCONTROLLER_CONTROLLER,
    aliases: ['replicationcontroller'],
    serviceAccount: 'replication-controller',
    component: 'kube-controller-manager',
    factory: (ctx) => replicationControllerController(ctx),
  },
  // KubeTab's stand-in for the kubelet's end of a graceful pod deletion (docs/decisions/0140).
  { name: POD_TERMINATION_CONTROLLER, aliases: [], component: 'kubelet', factory: (ctx) => podTerminationController(ctx) },
  // A small default-scheduler: binds pods to fitting nodes, else PodScheduled=False (docs/decisions/0142).
  { name: SCHEDULER_CONTROLLER, aliases: ['scheduler'], component: 'kube-scheduler', factory: (ctx) => schedulerController(ctx) },
  {
    name: CLUSTERROLE_AGGREGATION_CONTROLLER,
    aliases: ['clusterrole-aggregation'],
    serviceAccount: 'clusterrole-aggregation-controller',
    component: 'kube-controller-manager',
    factory: (ctx) => clusterRoleAggregationController(ctx),
  },
  {
    name: BOOTSTRAP_SIGNER_CONTROLLER,
    aliases: ['bootstrapsigner'],
    serviceAccount: 'bootstrap-signer',
    component: 'kube-controller-manager',
    disabledByDefault: true,
    factory: (ctx, o) => bootstrapSignerController(ctx, o.clockPollMs !== undefined ? { clockPollMs: o.clockPollMs } : {}),
  },
  {
    name: TOKEN_CLEANER_CONTROLLER,
    aliases: ['tokencleaner'],
    serviceAccount: 'token-cleaner',
    component: 'kube-controller-manager',
    disabledByDefault: true,
    factory: (ctx, o) => tokenCleanerController(ctx, o.clockPollMs !== undefined ? { clockPollMs: o.clockPollMs } : {}),
  },
  { name: JOB_CONTROLLER, aliases: ['job'], serviceAccount: 'job-controller', component: 'kube-controller-manager', factory: (ctx) => jobController(ctx) },
  { name: CRONJOB_CONTROLLER, aliases: ['cronjob'], serviceAccount: 'cronjob-controller', component: 'kube-controller-manager', factory: (ctx) => cronJobController(ctx) },
  {
    name: TTL_AFTER_FINISHED_CONTROLLER,
    aliases: ['ttl-after-finished'],
    serviceAccount: 'ttl-after-finished-controller',
    component: 'kube-controller-manager',
    factory: (ctx) => ttlAfterFinishedController(ctx),
  },
  {
    name: HPA_CONTROLLER,
    aliases: ['horizontalpodautoscaling'],
    serviceAccount: 'horizontal-pod-autoscaler',
    component: 'kube-controller-manager',
    factory: (ctx) => horizontalPodAutoscalerController(ctx),
  },
  { name: POD_GC_CONTROLLER, aliases: ['podgc'], serviceAccount: 'pod-garbage-collector', component: 'kube-controller-manager', factory: (ctx) => podGCController(ctx) },
  // What kubeadm init leaves in kube-public for joining nodes (docs/decisions/0190).
  {
    name: CLUSTER_INFO_CONTROLLER,
    aliases: [],
    component: 'kubeadm',
    disabledByDefault: true,
    factory: (ctx, o) => {
      const endpoint = { ...DEFAULT_ENDPOINT, ...o.bootstrap };
      return clusterInfoController(ctx, {
        ...o.clusterInfo,
        server: o.clusterInfo?.server ?? `https://${endpoint.advertiseAddress}:${endpoint.securePort}`,
        ...(!o.clusterInfo?.certificate && o.rootCA?.certificate ? { certificate: o.rootCA.certificate } : {}),
      });
    },
  },
  // Nodes (docs/decisions/0350): CIDRs, health and taints, evictions, the TTL annotation; all as node-controller but the last.
  { name: NODE_IPAM_CONTROLLER, aliases: ['nodeipam'], serviceAccount: 'node-controller', component: 'kube-controller-manager', factory: (ctx, o) => nodeIpamController(ctx, o.nodeIpam) },
  { name: NODE_LIFECYCLE_CONTROLLER, aliases: ['nodelifecycle'], serviceAccount: 'node-controller', component: 'kube-controller-manager', factory: (ctx) => nodeLifecycleController(ctx) },
  { name: TAINT_EVICTION_CONTROLLER, aliases: [], serviceAccount: 'node-controller', component: 'kube-controller-manager', factory: (ctx) => taintEvictionController(ctx) },
  { name: TTL_CONTROLLER, aliases: ['ttl'], serviceAccount: 'ttl-controller', component: 'kube-controller-manager', factory: (ctx) => ttlController(ctx) },
  // Services' endpoints (Endpoints, EndpointSlices, mirrored slices) and PodDisruptionBudgets' status.
  { name: ENDPOINTS_CONTROLLER, aliases: ['endpoint'], serviceAccount: 'endpoint-controller', component: 'kube-controller-manager', factory: (ctx) => endpointsController(ctx) },
  { name: ENDPOINTSLICE_CONTROLLER, aliases: ['endpointslice'], serviceAccount: 'endpointslice-controller', component: 'kube-controller-manager', factory: (ctx) => endpointSliceController(ctx) },
  {
    name: ENDPOINTSLICE_MIRRORING_CONTROLLER,
    aliases: ['endpointslicemirroring'],
    serviceAccount: 'endpointslicemirroring-controller',
    component: 'kube-controller-manager',
    factory: (ctx) => endpointSliceMirroringController(ctx),
  },
  { name: DISRUPTION_CONTROLLER, aliases: ['disruption'], serviceAccount: 'disruption-controller', component: 'kube-controller-manager', factory: (ctx) => disruptionController(ctx) },
  // kubeadm's addon phase: CoreDNS and kube-proxy, created on the first start.
  { name: KUBEADM_ADDONS_CONTROLLER, aliases: [], component: 'kubeadm', disabledByDefault: true, factory: (ctx) => kubeadmAddonsController(ctx) },
  // Persistent volumes: binding, the protection finalizers, and kind's local-path provisioner for the `standard` class.
  { name: PV_BINDER_CONTROLLER, aliases: ['persistentvolume-binder'], serviceAccount: 'persistent-volume-binder', component: 'kube-controller-manager', factory: (ctx) => persistentVolumeBinder(ctx) },
  { name: PVC_PROTECTION_CONTROLLER, aliases: ['pvc-protection'], serviceAccount: 'pvc-protection-controller', component: 'kube-controller-manager', factory: (ctx) => pvcProtectionController(ctx) },
  { name: PV_PROTECTION_CONTROLLER, aliases: ['pv-protection'], serviceAccount: 'pv-protection-controller', component: 'kube-controller-manager', factory: (ctx) => pvProtectionController(ctx) },
  { name: LOCAL_PATH_PROVISIONER_CONTROLLER, aliases: [], component: 'local-path-provisioner', disabledByDefault: true, factory: (ctx) => localPathProvisioner(ctx) },
  // Certificates: the built-in signers, kubelet client auto-approval, and the clean-up of finished requests.
  { name: CSR_SIGNING_CONTROLLER, aliases: ['csrsigning'], serviceAccount: 'certificate-controller', component: 'kube-controller-manager', factory: (ctx, o) => csrSigningController(ctx, o.clusterSigning) },
  { name: CSR_APPROVING_CONTROLLER, aliases: ['csrapproving'], serviceAccount: 'certificate-controller', component: 'kube-controller-manager', factory: (ctx) => csrApprovingController(ctx) },
  { name: CSR_CLEANER_CONTROLLER, aliases: ['csrcleaner'], serviceAccount: 'certificate-controller', component: 'kube-controller-manager', factory: (ctx) => csrCleanerController(ctx) },
  // Legacy service-account tokens: filled in (with kube-controller-manager's own credentials), tracked, cleaned up.
  {
    name: SERVICE_ACCOUNT_TOKEN_CONTROLLER,
    aliases: ['serviceaccount-token'],
    component: 'kube-controller-manager',
    factory: (ctx, o) => serviceAccountTokenController(ctx, { ...(o.serviceAccountTokens ? { issue: o.serviceAccountTokens } : {}), ...(o.rootCA ? { rootCA: o.rootCA } : {}) }),
  },
  { name: LEGACY_TOKEN_TRACKING_CONTROLLER, aliases: [], component: 'kube-apiserver', factory: (ctx) => legacyTokenTrackingController(ctx) },
  {
    name: LEGACY_TOKEN_CLEANER_CONTROLLER,
    aliases: ['legacy-service-account-token-cleaner'],
    serviceAccount: 'legacy-service-account-token-cleaner',
    component: 'kube-controller-manager',
    factory: (ctx) => legacyTokenCleaner(ctx),
  },
];

export const CONTROLLER_NAMES: readonly string[] = REGISTRY.map((r) => r.name);

/** Which registrations --controllers-style names select. */
export function selectControllers(enabled: readonly string[] | undefined): string[] {
  const list = enabled ?? ['*'];
  const canonical = (n: string) => REGISTRY.find((r) => r.name === n || r.aliases.includes(n))?.name;
  const on = new Set<string>();
  const off = new Set<string>();
  for (const entry of list) {
    if (entry === '*') REGISTRY.filter((r) => !r.disabledByDefault).forEach((r) => on.add(r.name));
    else if (entry.startsWith('-')) {
      const n = canonical(entry.slice(1));
      if (n) off.add(n);
    } else {
      const n = canonical(entry);
      if (n) on.add(n);
    }
  }
  return CONTROLLER_NAMES.filter((n) => on.has(n) && !off.has(n));
}

/** The kube-system ServiceAccounts of the kube-controller-manager controllers these names select (created when they start). */
export function controllerServiceAccounts(enabled: readonly string[] | undefined): string[] {
  const selected = new Set(selectControllers(enabled));
  // Several controllers may share one account (node-controller runs node-lifecycle, node-ipam and taint eviction).
  return [...new Set(REGISTRY.filter((r) => selected.has(r.name) && r.component === 'kube-controller-manager' && r.serviceAccount).map((r) => r.serviceAccount!))];
}

/** Which program a controller belongs to (kube-apiserver's run on every server; the others with their component's leader, src/core/controllers/leader-election). */
export function controllerComponent(name: string): Registration['component'] | undefined {
  return REGISTRY.find((r) => r.name === name || r.aliases.includes(name))?.component;
}

function rateLimitOf(r: Registration): RateLimit | undefined {
  if (r.component === 'kube-controller-manager') return CONTROLLER_MANAGER_RATE;
  if (r.component === 'kube-scheduler') return SCHEDULER_RATE;
  return undefined;
}

function userAgent(r: Registration): string {
  const base = `${r.component}/v1.32.0 (kubetab) kubernetes/kubetab`;
  return r.serviceAccount ? `${base}/system:serviceaccount:kube-system:${r.serviceAccount}` : base;
}

export function startControllers(options: StartControllersOptions): RunningControllers {
  const log = options.log ?? ((message: string) => console.info(`[controllers] ${message}`));
  const activity = new Activity();
  // The shared informers' client is kube-controller-manager's, with its default rate limit.
  const root = new ApiClient({
    send: options.send,
    baseUrl: options.baseUrl,
    userAgent: 'kube-controller-manager/v1.32.0 (kubetab) kubernetes/kubetab/shared-informers',
    rateLimit: CONTROLLER_MANAGER_RATE,
  });
  const informers = new SharedInformers(root, activity, log);
  const selected = new Set(selectControllers(options.enabled));
  const running: Controller[] = [];
  const timers = new ClockTimers(options.clock, (err) => log(`timer failed: ${err instanceof Error ? err.message : String(err)}`));
  // kube's client builder: each controller's service account exists in kube-system once it starts.
  const accounts = controllerServiceAccounts(options.enabled);
  const clientBuilder = ensureServiceAccounts(
    root.withUserAgent('kube-controller-manager/v1.32.0 (kubetab) kubernetes/kubetab/kube-controller-manager'),
    activity,
    accounts,
    (message) => log(`client builder: ${message}`),
  );
  for (const r of REGISTRY) {
    if (!selected.has(r.name)) continue;
    // Each client limits its own rate as client-go's do: kube-controller-manager's and kube-scheduler's
    // defaults; kube-apiserver's own loopback clients (and kubeadm's, the kubelet stand-in's) are not limited.
    // (An unlimited client is a new one: root.withUserAgent would inherit the root's limit. kube-apiserver's
    // loopback client has QPS -1; rate-limiting its autoregistration writes held start-up back by ~0.3 s.)
    const limit = rateLimitOf(r);
    const client = limit ? root.withUserAgent(userAgent(r), limit) : new ApiClient({ send: options.send, baseUrl: options.baseUrl, userAgent: userAgent(r) });
    const controllerLog = (message: string) => log(`${r.name}: ${message}`);
    const ctx: ControllerContext = {
      client,
      clock: options.clock,
      activity,
      informers,
      log: controllerLog,
      timers,
      recorder: (component, host) => new EventRecorder(client, options.clock, host ? { component, host } : { component }, controllerLog),
    };
    const controller = r.factory(ctx, options);
    running.push(controller);
    controller.start();
  }
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        await Promise.all(running.map((c) => c.stop()));
        await clientBuilder.stop();
        timers.stop();
        await informers.stop();
      })();
      return stopped;
    },
    idle: () => activity.idle(),
  };
}

export type { Send } from './client/api-client';
export type { RootCAOptions } from './root-ca/root-ca-publisher';
export type { BootstrapOptions } from './bootstrap/bootstrap-controller';
export type { ClusterInfoOptions } from './kubeadm/cluster-info';
export type { ClusterSigningOptions, SigningKeyPair } from './csr/signing-ca';
export type { LegacyTokenIssuer } from './legacy-sa-token/tokens-controller';
