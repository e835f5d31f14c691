// What `kubeadm init` leaves in kube-public for nodes that join with a
// bootstrap token (phase bootstrap-token): the `cluster-info` ConfigMap, whose
// `kubeconfig` names the API server and the cluster CA (no user, no context),
// and the Role and RoleBinding `kubeadm:bootstrap-signer-clusterinfo` that let
// system:anonymous get it — a joining node reads it before it trusts the
// server, then checks the bootstrap signer's JWS. Created when missing at
// start, as kubeadm creates it once; never repaired afterwards.
//
// On a fresh cluster (no cluster-info yet) the phase's other objects come
// first, as kubeadm creates them: the default bootstrap token and the RBAC
// for joining nodes (default-token.ts). The signer then signs cluster-info
// with that token, so a new cluster has its jws-kubeconfig-<id> key at once.
//
// The CA is the cluster's own (the one the root-CA publisher puts in
// kube-system/kube-root-ca.crt), or the host's when it has one.

import { base64 } from '../root-ca/der';
import { isAlreadyExists, isNotFound } from '../client/api-error';
import { Informer } from '../client/informer';
import type { GroupVersionResource } from '../client/resource-path';
import type { Controller, ControllerContext } from '../runtime/controller';
import { WorkQueue } from '../runtime/work-queue';
import { CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE } from '../../auth/bootstrap-tokens/signer';
import { bootstrapTokenPhaseObjects } from './default-token';

export const CLUSTER_INFO_CONTROLLER = 'kubeadm-cluster-info';
export const CLUSTER_INFO_RBAC_NAME = 'kubeadm:bootstrap-signer-clusterinfo';
const CONFIGMAPS: GroupVersionResource = { group: '', version: 'v1', resource: 'configmaps' };
const ROLES: GroupVersionResource = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles' };
const ROLE_BINDINGS: GroupVersionResource = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings' };
const ROOT_CA = 'kube-root-ca.crt';

export interface ClusterInfoOptions {
  /** The API server URL joining nodes use (kubeadm: the control-plane endpoint). Default https://<advertise address>:<secure port>. */
  readonly server?: string;
  /** The cluster CA bundle (PEM); absent: the one published in kube-system/kube-root-ca.crt. */
  readonly certificate?: () => Promise<string>;
}

/** The kubeconfig kubeadm writes: clientcmd's YAML (keys sorted) of one unnamed cluster. */
export function clusterInfoKubeconfig(server: string, caPem: string): string {
  return [
    'apiVersion: v1',
    'clusters:',
    '- cluster:',
    `    certificate-authority-data: ${base64(new TextEncoder().encode(caPem))}`,
    `    server: ${server}`,
    '  name: ""',
    'contexts: null',
    'current-context: ""',
    'kind: Config',
    'preferences: {}',
    'users: null',
    '',
  ].join('\n');
}

export function clusterInfoController(ctx: ControllerContext, options: ClusterInfoOptions & { readonly server: string }): Controller {
  const rootCA = new Informer(ctx.client, CONFIGMAPS, ctx.activity, { namespace: 'kube-system', fieldSelector: `metadata.name=${ROOT_CA}`, log: ctx.log });
  const unsubscribe: (() => void)[] = [];
  let done = false;

  const createIgnoringExisting = async (gvr: GroupVersionResource, obj: Parameters<typeof ctx.client.create>[2], namespace = CLUSTER_INFO_NAMESPACE) => {
    try {
      await ctx.client.create(gvr, namespace, obj);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  };

  const queue = new WorkQueue(CLUSTER_INFO_CONTROLLER, ctx.activity, async () => {
    if (done) return;
    let exists = true;
    try {
      await ctx.client.get(CONFIGMAPS, CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      exists = false;
    }
    if (!exists) {
      const ca = options.certificate
        ? await options.certificate()
        : (rootCA.get('kube-system', ROOT_CA)?.['data'] as Record<string, string> | undefined)?.['ca.crt'];
      // No CA yet: the root-CA publisher's ConfigMap brings this key back when it appears.
      if (!ca) return;
      for (const { gvr, namespace, object } of bootstrapTokenPhaseObjects(ctx.clock.now())) await createIgnoringExisting(gvr, object, namespace);
      await createIgnoringExisting(CONFIGMAPS, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: CLUSTER_INFO_NAME, namespace: CLUSTER_INFO_NAMESPACE },
        data: { kubeconfig: clusterInfoKubeconfig(options.server, ca) },
      });
    }
    await createIgnoringExisting(ROLES, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: CLUSTER_INFO_RBAC_NAME, namespace: CLUSTER_INFO_NAMESPACE },
      rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: [CLUSTER_INFO_NAME], verbs: ['get'] }],
    });
    await createIgnoringExisting(ROLE_BINDINGS, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: CLUSTER_INFO_RBAC_NAME, namespace: CLUSTER_INFO_NAMESPACE },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: CLUSTER_INFO_RBAC_NAME },
      subjects: [{ kind: 'User', name: 'system:anonymous' }],
    });
    done = true;
  }, ctx.log);

  return {
    name: CLUSTER_INFO_CONTROLLER,
    start() {
      queue.add(CLUSTER_INFO_NAME);
      if (options.certificate) return;
      rootCA.start();
      unsubscribe.push(rootCA.addHandler({ onAdd: () => queue.add(CLUSTER_INFO_NAME), onUpdate: () => queue.add(CLUSTER_INFO_NAME) }));
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await queue.stop();
      await rootCA.stop();
    },
  };
}
