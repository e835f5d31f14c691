// Assembles the API server: the registry of served resources, the request
// pipeline, and the dispatch to discovery, health, version, OpenAPI and the
// resource handlers. Read top to bottom, `handle` is the whole request path.

import { systemClock } from '../clock';
import { errors } from '../errors/status';
import { builtinResources } from '../kinds/builtin';
import type { ApiServer, ApiServerOptions } from '../server';
import type { RequestScope, ServerContext } from './context';
import { FeatureGates } from './feature-gates';
import { DecodeCache } from './object-codec';
import { ResourceRegistry } from './registry';
import { parseRoute, type ResourceRoute } from './route';
import { negotiateOutput, type OutputFormat, type OutputRequest } from './media';
import { appendWarningHeaders, errorResponse, objectResponse } from './respond';
import { existingRequestRecord } from './handlers/request-record';
import { handleHealth } from './health';
import { versionInfo } from './version';
import { aggregatedDiscovery, apiGroupDocument, apiGroupList, apiResourceList, apiVersions, StorageVersionHashes } from './discovery';
import { handleGet, handleList, resourceOutput } from './handlers/read';
import { isCustomResource } from '../crd/decode';
import { handleWatch } from './handlers/watch';
import { handleCreate, handleUpdate } from './handlers/write';
import { handleDelete, handleDeleteCollection } from './handlers/delete';
import { handlePatch } from './handlers/patch';
import { bootstrapCluster } from './bootstrap';
import { handleOpenApi } from './openapi';
import { subresourceHandlers, virtualHandlers } from './custom';
import { KUBEADM_CONTROLLERS, controllerComponent, selectControllers, startControllers, type LegacyTokenIssuer, type RunningControllers } from '../controllers';
import { startControlPlaneLeaders, type ControlPlaneLeaders } from '../controllers/leader-election/control-plane-leaders';
import { issueLegacyServiceAccountToken } from '../auth';
import { nodeIpamOptionsFromFlags } from '../controllers/node-lifecycle/node-ipam-controller';
// Custom resources: the customresourcedefinitions resource and the controller that serves CRDs.
import { installCustomResources, withCustomResourceDefinitions } from '../crd';
// Access control: authentication, impersonation, authorization, audit, RBAC (src/core/api/access).
import { admit, auditResponse, beginAudit, newAuditId, handleIssuerDiscovery, JWKS_PATH, OPENID_CONFIGURATION_PATH, createAccessControl, handleAuditEndpoint, internalClientFor, loadAccessConfig, type InternalClient, APISERVER_USER, APISERVER_USER_AGENT, reconcileBootstrapPolicy, withRbacWriteChecks, AUDIT_PATH, handleTestIssuer, isTestIssuerPath } from './access';
import type { UserInfo } from '../auth/types';
import type { KubeObject } from '../kinds/types';
import { toStatusError } from './respond';
// The admission chain (src/core/admission), handed to the handlers through ctx.services.
import { createAdmissionChain } from '../admission/chain';
import { withKubeadmAdmissionDefaults } from '../admission/kubeadm-defaults';
import { ADMISSION_CHAIN } from '../admission/request';
import { ADMISSION_WEBHOOK_FETCH } from '../admission/webhook/fetch';
import { pluginsWithoutTheirControllers } from '../admission/plugin-names';
// Service ClusterIP / NodePort allocation, following the stored Services.
import { createServiceAllocator, SERVICE_ALLOCATOR } from '../kinds/builtin/core/services/store-allocator';
// The kubelets the API reaches for pods/log, exec, attach, portforward and metrics (src/core/kubelet/connection.ts).
import { KUBELET_CONNECTIONS, KubeletConnections } from '../kubelet/connection';
// The simulated nodes' kubelets, clients of this server as the controllers are (src/core/kubelet).
import { startKubelets, type RunningKubelets } from '../kubelet';
import { DEFAULT_TOPOLOGY } from '../kubelet/topology';
// metrics.k8s.io/v1beta1 NodeMetrics and PodMetrics from the kubelets' stats (src/core/api/metrics).
import { metricsResources } from './metrics/metrics-resources';
// Faults a test adds (src/core/api/faults): matched against requests from outside, once authorized.
import { FaultInjector, servedResourceInfo } from './faults';

/** kube-apiserver's --etcd-compaction-interval default. */
const DEFAULT_RETENTION_MS = 5 * 60_000;

function parseDuration(text: string | undefined, fallbackMs: number): number {
  if (!text) return fallbackMs;
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let matched = '';
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const value = Number(m[1]);
    total += m[2] === 'h' ? value * 3_600_000 : m[2] === 'm' ? value * 60_000 : m[2] === 's' ? value * 1000 : value;
    matched += m[0];
  }
  if (matched !== text) throw new Error(`invalid duration ${JSON.stringify(text)}`);
  return total;
}

/** The format of an error when the request's own negotiation failed or never ran: JSON, indented for browsers and curl. */
function errorOutput(request: OutputRequest): OutputFormat {
  try {
    return { ...negotiateOutput(request), as: undefined };
  } catch {
    return { contentType: 'application/json', encoding: 'json', pretty: true };
  }
}

export async function createApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const flags = options.flags ?? {};
  const clock = options.clock ?? systemClock();
  const featureGates = new FeatureGates(flags['feature-gates']);
  // Start-up errors of the access-control flags (kube-apiserver exits with them) reject here.
  const accessConfig = await loadAccessConfig(flags, options.readFile);
  // kube-controller-manager's --cluster-cidr / --node-cidr-mask-size: a bad value is a start-up error too.
  const nodeIpam = nodeIpamOptionsFromFlags(flags);
  const decodeCache = new DecodeCache();
  // Legacy token tracking: the authenticator labels a used legacy token's Secret through the
  // server's loopback client (system:apiserver), as kube-apiserver's secretsWriter does.
  const markLegacyTokenUsed = async (secret: KubeObject, date: string): Promise<void> => {
    const meta = secret.metadata ?? {};
    const path = `/api/v1/namespaces/${encodeURIComponent(meta.namespace ?? '')}/secrets/${encodeURIComponent(meta.name ?? '')}`;
    const patch = { metadata: { uid: meta.uid, labels: { 'kubernetes.io/legacy-token-last-used': date } } };
    const response = await serve(
      new Request(`http://kubetab.internal${path}`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json', 'User-Agent': APISERVER_USER_AGENT }, body: JSON.stringify(patch) }),
      { user: APISERVER_USER, userAgent: APISERVER_USER_AGENT },
    );
    await response.text();
    if (!response.ok) (options.log ?? console.info)(`legacy token tracking: labeling secret ${meta.namespace}/${meta.name}: ${response.status}`);
  };
  const access = createAccessControl(accessConfig, { store: options.store, decodeCache, clock, markLegacyTokenUsed, ...(options.auditSink ? { auditSink: options.auditSink } : {}) });
  // Key files are part of the configuration: a bad one is a start-up error too.
  if (accessConfig.serviceAccounts.signingKeyPem || accessConfig.serviceAccounts.verificationKeyPems.length) await access.serviceAccountKeys();
  // The built-ins plus customresourcedefinitions with the CRD strategy of src/core/crd;
  // the RBAC kinds refuse privilege escalation whatever the authorizer.
  // metrics.k8s.io is served, as by a metrics-server add-on, when the server has kubelets to read (decision 0353).
  const servesMetrics = options.kubeletConnections !== undefined || (options.nodes ?? ((options.controllers ?? KUBEADM_CONTROLLERS).length > 0 ? DEFAULT_TOPOLOGY : [])).length > 0;
  const builtins = withRbacWriteChecks(withCustomResourceDefinitions([...builtinResources({ featureGates: featureGates.all() }), ...(servesMetrics ? metricsResources() : [])]), () => access);
  const registry = new ResourceRegistry(builtins, flags['runtime-config']);
  // --enable-admission-plugins / --disable-admission-plugins: unknown names are start-up errors.
  // NodeRestriction on unless the flags say otherwise, as kubeadm configures kube-apiserver (decision 0191).
  // Plugins whose work a controller completes are left out when it does not run (the unit-test
  // servers run none), as kube's own test servers run without them (decision 0220).
  const admissionDefaultOff = pluginsWithoutTheirControllers(selectControllers(options.controllers ?? KUBEADM_CONTROLLERS));
  const admissionChain = createAdmissionChain(withKubeadmAdmissionDefaults(flags), { defaultOff: admissionDefaultOff });
  const ctx: ServerContext = {
    store: options.store,
    clock,
    registry,
    decodeCache,
    flags,
    featureGates,
    host: options.host,
    maxWatchSeconds: options.maxWatchSeconds ?? 3600,
    retentionMs: parseDuration(flags['etcd-compaction-interval'], DEFAULT_RETENTION_MS),
    services: {
      [SERVICE_ALLOCATOR]: createServiceAllocator(options.store, flags),
      [ADMISSION_CHAIN]: admissionChain,
      [KUBELET_CONNECTIONS]: options.kubeletConnections ?? new KubeletConnections(),
      ...(options.admissionWebhookFetch ? { [ADMISSION_WEBHOOK_FETCH]: options.admissionWebhookFetch } : {}),
    },
    startedAt: clock.now(),
    access,
  };
  const faults = new FaultInjector(clock, () => servedResourceInfo(registry), () => options.store.currentRevision());
  // The discovery documents' storageVersionHash values (a SHA-256 per resource):
  // computed when a resource list first shows them, not at every start, where
  // their hundred digests would queue ahead of the first request's (decision 0317).
  const hashes = new StorageVersionHashes();
  let hashesComputed: Promise<void> | undefined;
  const computeHashes = (): Promise<void> => (hashesComputed ??= hashes.refresh(registry.allDefinitions()));
  registry.onChange(() => {
    if (hashesComputed) void hashes.refresh(registry.allDefinitions());
  });

  let storeReady = false;
  void options.store.ready().then(() => {
    storeReady = true;
  });
  // First start: the namespaces and objects a fresh cluster has. Runs in the
  // background so the first request never waits for it.
  let bootstrapDone = false;
  let controllers: RunningControllers | undefined;
  let kubelets: RunningKubelets | undefined;
  let closing = false;
  // Resolved by close(): start-up stops waiting for the controllers to settle (on a Clock nobody moves
  // they may wait for simulated time that never comes) and close() does not wait for it.
  let closeRequested!: () => void;
  const closeRequest = new Promise<void>((resolve) => (closeRequested = resolve));
  const nodeConfigs = options.nodes ?? ((options.controllers ?? KUBEADM_CONTROLLERS).length > 0 ? DEFAULT_TOPOLOGY : []);
  // With controllers, the leader elections (src/core/controllers/leader-election) and what this server leads.
  let leaders: ControlPlaneLeaders | undefined;
  let managed: RunningControllers | undefined;
  let scheduling: RunningControllers | undefined;
  const startSimulatedKubelets = (): RunningKubelets =>
    startKubelets({
      send: (request: Request, userAgent?: string) => serve(request, internalClientFor(userAgent ?? request.headers.get('user-agent'))),
      clock,
      nodes: nodeConfigs,
      stopped: options.stoppedNodes ?? [],
      connections: ctx.services[KUBELET_CONNECTIONS] as KubeletConnections,
      ...(options.log ? { log: options.log } : {}),
    });
  const bootstrapped = options.store
    .ready()
    // The default RBAC policy, created and repaired at every start (rbac/bootstrap-roles), in place
    // before the system namespaces appear, so that a cluster whose `default` namespace exists has it.
    .then(() => reconcileBootstrapPolicy(ctx, access, options.log ?? ((m) => console.info(`[rbac] ${m}`))))
    .then(() => bootstrapCluster(ctx))
    .then(async () => {
      // The controllers are clients of this server, as kube-controller-manager is of kube-apiserver,
      // each with the identity kube gives it (its service account in kube-system).
      const enabled = options.controllers ?? KUBEADM_CONTROLLERS;
      if (enabled.length > 0) {
        const send = (request: Request, userAgent?: string) => serve(request, internalClientFor(userAgent ?? request.headers.get('user-agent')));
        // kube-controller-manager's keys: the service-account key signs legacy Secret tokens; the host's
        // cluster CA (when it has one) signs CSRs and is the root CA published to every namespace.
        const serviceAccountTokens: LegacyTokenIssuer = async (o) => issueLegacyServiceAccountToken({ keys: await access.serviceAccountKeys(), ...o });
        const clusterCA = options.clusterCA;
        // kube-apiserver's identity Lease and `kubernetes` endpoints: this server's address and names (issue 18).
        const identity = options.apiServerIdentity;
        const advertiseAddress = flags['advertise-address'];
        const bootstrap = identity || advertiseAddress ? { ...identity, ...(advertiseAddress ? { advertiseAddress } : {}) } : undefined;
        const signing = clusterCA ? { clusterSigning: { keyPair: clusterCA }, rootCA: { certificate: async () => (await clusterCA()).certificate } } : {};
        const startGroup = (names: readonly string[]) =>
          startControllers({ send, clock, enabled: names, serviceAccountTokens, ...signing, nodeIpam, ...(bootstrap ? { bootstrap } : {}), ...(options.log ? { log: options.log } : {}) });
        // kube-apiserver's own controllers run on every server; kube-controller-manager's (with the
        // simulated kubelets) and kube-scheduler's only where they hold their Lease (src/core/controllers/leader-election).
        const selected = selectControllers(enabled);
        const apiserverNames = selected.filter((n) => controllerComponent(n) === 'kube-apiserver');
        const schedulerNames = selected.filter((n) => controllerComponent(n) === 'kube-scheduler');
        const managerNames = selected.filter((n) => !apiserverNames.includes(n) && !schedulerNames.includes(n));
        // Only a store shared with other servers (etcd) needs elections; a server alone on its store (memory,
        // files, IndexedDB: every browser tab, every test) runs everything itself at once, as before.
        const shared = flags['etcd-servers'] !== undefined && flags['etcd-servers'] !== '';
        controllers = startGroup(shared ? apiserverNames : selected);
        await Promise.race([controllers.idle(), closeRequest]);
        if (!shared) {
          if (!closing && nodeConfigs.length > 0) kubelets = startSimulatedKubelets();
        } else if (!closing) {
          leaders = startControlPlaneLeaders({
            send,
            clock,
            hostname: nodeConfigs.find((n) => n.role === 'control-plane')?.name ?? 'kubetab-control-plane',
            soleCandidate: false,
            ...(managerNames.length > 0 || nodeConfigs.length > 0
              ? {
                  controllerManager: {
                    start: async () => {
                      managed = startGroup(managerNames);
                      await Promise.race([managed.idle(), closeRequest]);
                      // The kubelets start after the controllers, as a kind node's kubelet joins a running control plane.
                      if (!closing && nodeConfigs.length > 0) kubelets = startSimulatedKubelets();
                    },
                    stop: async () => {
                      await kubelets?.stop();
                      await managed?.stop();
                      kubelets = managed = undefined;
                    },
                  },
                }
              : {}),
            ...(schedulerNames.length > 0
              ? {
                  scheduler: {
                    start: () => void (scheduling = startGroup(schedulerNames)),
                    stop: async () => {
                      await scheduling?.stop();
                      scheduling = undefined;
                    },
                  },
                }
              : {}),
            ...(options.log ? { log: options.log } : {}),
          });
          await Promise.race([leaders.started, closeRequest]);
        }
      } else if (nodeConfigs.length > 0 && !closing) {
        // A server without controllers (tests of the kubelets alone) runs its nodes without an election.
        kubelets = startSimulatedKubelets();
      }
      bootstrapDone = true;
    });
  // Custom resources: the CRD controller watches the store and serves Established CRDs through the registry.
  const customResources = installCustomResources(ctx, builtins);

  const handle = (request: Request): Promise<Response> => serve(request, undefined);
  const handleAs = (request: Request, user: UserInfo): Promise<Response> => serve(request, { user });

  /**
   * The request path: access filters (authentication unless `client` is
   * given, impersonation, authorization, audit), then routing and dispatch.
   */
  async function serve(request: Request, client: InternalClient | undefined): Promise<Response> {
    const url = new URL(request.url);
    const userAgent = client?.userAgent ?? request.headers.get('user-agent');
    const outputRequest: OutputRequest = {
      accept: request.headers.get('accept'),
      pretty: url.searchParams.get('pretty'),
      userAgent,
    };
    const auditID = request.headers.get('audit-id') || newAuditId();
    const entry = beginAudit(access, request, url, auditID, userAgent);
    let output: OutputFormat | undefined;
    let response: Response;
    try {
      const admission = await admit(access, request, url, client, entry);
      if (admission.response) {
        response = admission.response;
      } else {
        const user = admission.user;
        const route = parseRoute(request.method, url.pathname, url.searchParams);
        if (route.kind === 'nonresource') {
          response = await handleNonResource(request, url, outputRequest);
        } else {
          const served = registry.lookup(route.group, route.version, route.resource);
          if (!served) throw errors.pathNotFound();
          if (served.version.deprecated) entry.deprecated = true;
          if (route.verb === 'watch') entry.stage = 'ResponseStarted';
          output = negotiateOutput(outputRequest, { transforms: true, watch: route.verb === 'watch' });
          const scope: RequestScope = { request, url, query: url.searchParams, route, served, output, userAgent, ...(user ? { user } : {}) };
          // Strategies see the user through StrategyContext.user (the per-request context).
          // Custom resources have no protobuf form: they negotiate again before any work, so a
          // protobuf-only client gets its 406 before a write happens, as in kube; errors keep `output`.
          const resourceScope = isCustomResource(served) ? { ...scope, output: resourceOutput(scope) } : scope;
          const run = () => dispatch(user ? { ...ctx, user } : ctx, resourceScope, route);
          response =
            client === undefined && faults.active
              ? await faults.serve({ verb: route.verb, group: served.group, resource: route.resource, subresource: route.subresource, namespace: route.namespace, name: route.name, user, query: url.searchParams, request }, output, run)
              : await run();
        }
      }
    } catch (err) {
      entry.status = toStatusError(err).status;
      response = errorResponse(err, output ?? errorOutput(outputRequest));
    }
    // What the request recorded on its way, whatever the outcome: its warnings as Warning
    // headers (kube sends them with an error too) and admission's audit annotations.
    const record = existingRequestRecord(request);
    if (record) {
      response = appendWarningHeaders(response, record.warnings);
      if (Object.keys(record.auditAnnotations).length) entry.annotations = { ...record.auditAnnotations };
    }
    // The response's code and the audit stages (a watch's body is wrapped to record its end).
    response = auditResponse(access, entry, response);
    try {
      response.headers.set('Audit-Id', auditID);
    } catch {
      // Immutable headers (never for the core's own responses).
    }
    return response;
  }

  async function dispatch(ctx: ServerContext, scope: RequestScope, route: ResourceRoute): Promise<Response> {
    const verbs = scope.served.definition.verbs;
    // Scope: a cluster-scoped resource has no namespaced paths; a namespaced one has only list and watch across namespaces.
    const namespaced = scope.served.definition.namespaced;
    const isNamespaceObject = scope.served.group === '' && scope.served.definition.plural === 'namespaces';
    if (!namespaced && route.namespace && !isNamespaceObject) throw errors.pathNotFound();
    if (namespaced && !route.namespace) {
      if (route.name) throw errors.pathNotFound();
      if (route.verb !== 'list' && route.verb !== 'watch') throw errors.methodNotAllowedOnPath();
    }
    const allowed = (verb: string) => {
      if (!verbs.includes(verb as never)) throw errors.methodNotSupported(scope.served.groupResource, verb);
    };
    if (route.subresource) {
      const sub = scope.served.definition.subresources?.find((s) => s.name === route.subresource);
      if (!sub) throw errors.pathNotFound();
      // Only proxy routes take a path after the subresource.
      if (route.subpath && route.subresource !== 'proxy') throw errors.pathNotFound();
      if (!sub.verbs.includes(route.verb as never)) throw errors.methodNotAllowedOnPath();
      if (sub.type === 'custom') {
        const handler = sub.handler ? subresourceHandlers[sub.handler] : undefined;
        if (!handler) throw errors.pathNotFound();
        return handler(ctx, scope, sub);
      }
    }
    if (scope.served.definition.virtual) {
      const handler = scope.served.definition.handler ? virtualHandlers[scope.served.definition.handler] : undefined;
      if (!handler) throw errors.pathNotFound();
      return handler(ctx, scope);
    }
    switch (route.verb) {
      case 'get':
        if (route.subresource) return handleGet(ctx, scope);
        allowed('get');
        return handleGet(ctx, scope);
      case 'list':
        allowed('list');
        return handleList(ctx, scope);
      case 'watch':
        allowed('watch');
        return handleWatch(ctx, scope);
      case 'create':
        allowed('create');
        return handleCreate(ctx, scope);
      case 'update':
        if (!route.subresource) allowed('update');
        return handleUpdate(ctx, scope);
      case 'patch':
        if (!route.subresource) allowed('patch');
        return handlePatch(ctx, scope);
      case 'delete':
        allowed('delete');
        return handleDelete(ctx, scope);
      case 'deletecollection':
        allowed('deletecollection');
        return handleDeleteCollection(ctx, scope);
    }
  }

  async function handleNonResource(request: Request, url: URL, outputRequest: OutputRequest): Promise<Response> {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = request.method.toUpperCase();
    // KubeTab's own audit endpoint (authorized above as a non-resource path).
    if (path === AUDIT_PATH) return handleAuditEndpoint(access, method, url.searchParams);
    // Service account issuer discovery (OIDC metadata and keys of service-account tokens).
    if ((path === OPENID_CONFIGURATION_PATH || path === JWKS_PATH) && (method === 'GET' || method === 'HEAD')) {
      const discovery = await handleIssuerDiscovery(access, path, url, flags);
      if (discovery) return discovery;
    }
    // The built-in OIDC test issuer (discovery, keys, minting), also a KubeTab path.
    if (isTestIssuerPath(path)) return handleTestIssuer(await access.testIssuer(), method, path, request);
    const health = handleHealth(ctx, path, url.searchParams, { storeReady: () => storeReady, bootstrapped: () => bootstrapDone });
    if (health) return method === 'GET' || method === 'HEAD' ? health : Promise.reject(errors.methodNotAllowedOnPath());
    if (path.startsWith('/openapi')) return handleOpenApi(ctx, request, url);
    if (method !== 'GET' && method !== 'HEAD') {
      if (['/api', '/apis', '/version'].includes(path) || path.startsWith('/api/') || path.startsWith('/apis/')) throw errors.methodNotAllowedOnPath();
      throw errors.pathNotFound();
    }
    if (path === '/version') return objectResponse(versionInfo(ctx.host), 200, { contentType: 'application/json', encoding: 'json', pretty: true });
    const discoveryOffers = { aggregatedDiscovery: path === '/api' || path === '/apis' };
    const output = negotiateOutput(outputRequest, discoveryOffers);
    const discoveryHeaders = { Vary: 'Accept' };
    if (output.as === 'APIGroupDiscoveryList') {
      return objectResponse(aggregatedDiscovery(ctx, path === '/api', output.asVersion ?? 'v2'), 200, output, discoveryHeaders);
    }
    if (path === '/api') return objectResponse(apiVersions(url.host), 200, output, discoveryHeaders);
    if (path === '/apis') return objectResponse(apiGroupList(ctx), 200, output, discoveryHeaders);
    const parts = path.split('/').filter(Boolean);
    if ((parts[0] === 'api' && parts.length === 2) || (parts[0] === 'apis' && parts.length === 3)) await computeHashes();
    if (parts[0] === 'api' && parts.length === 2) {
      const list = apiResourceList(ctx, hashes, '', parts[1]!);
      if (list) return objectResponse(list, 200, output);
    }
    if (parts[0] === 'apis' && parts.length === 2) {
      const group = apiGroupDocument(ctx, parts[1]!);
      if (group) return objectResponse(group, 200, output);
    }
    if (parts[0] === 'apis' && parts.length === 3) {
      const list = apiResourceList(ctx, hashes, parts[1]!, parts[2]!);
      if (list) return objectResponse(list, 200, output);
    }
    throw errors.pathNotFound();
  }

  return {
    handle,
    handleAs,
    reloadConfigFiles: () => access.reloadConfigFiles(),
    faults,
    nodes: {
      configured: nodeConfigs,
      running: () => kubelets?.running() ?? [],
      stopNode: async (name) => kubelets?.stopNode(name),
      startNode: (name) => kubelets?.startNode(name),
    },
    async ready() {
      // storeReady is set by an earlier reaction to the same store.ready() that bootstrapped follows.
      await bootstrapped;
    },
    async idle() {
      await bootstrapped;
      await controllers?.idle();
      await managed?.idle();
      await scheduling?.idle();
      await kubelets?.idle();
      await managed?.idle();
      await scheduling?.idle();
      await controllers?.idle();
    },
    async close() {
      closing = true;
      closeRequested();
      customResources.stop();
      faults.stop();
      access.stop();
      await bootstrapped.catch(() => undefined);
      // The leader's work stops and its Leases are released (another server takes over at once).
      await leaders?.stop();
      await kubelets?.stop();
      await controllers?.stop();
      await options.store.close();
    },
  };
}
