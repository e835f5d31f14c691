// The Node authorizer (basic version): requests of kubelets, identified as
// user "system:node:<name>" in group "system:nodes". Secrets, ConfigMaps,
// PersistentVolume(Claim)s, VolumeAttachments and service-account tokens are
// allowed only when the object is related to the node (a dependency answers
// that, standing in for kube's graph of pods bound to nodes); leases and
// CSINodes only by the node's own name; with AuthorizeNodeWithSelectors (on by
// default in 1.32) a node reads only its own Node and lists only pods with
// spec.nodeName=<itself>. Everything else falls back to the static node rules.
// Other users: no opinion.

import { nodeRules } from '../bootstrap/node-rules';
import { rulesAllow } from './rule-match';
import { GROUP, type Attributes, type SyncAuthorizer, type DecisionValue, type TraceStep, type UserInfo } from '../types';

export type NodeGraphVertex = 'secret' | 'configmap' | 'pvc' | 'pv' | 'resourceclaim' | 'volumeattachment' | 'serviceaccount' | 'pod';

export interface NodeAuthorizerDeps {
  /** Whether the object is reachable from the node in the pod graph (pods bound to it and what they reference). */
  isRelatedToNode?(nodeName: string, vertex: NodeGraphVertex, namespace: string, name: string): boolean;
  /** AuthorizeNodeWithSelectors (default true in 1.32). */
  authorizeNodeWithSelectors?: boolean;
  name?: string;
}

const NODE_USER_PREFIX = 'system:node:';

/** NodeIdentity: the node name, '' for a node with no usable name, undefined for non-nodes. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.username.startsWith(NODE_USER_PREFIX)) return undefined;
  if (!user.groups.includes(GROUP.nodes)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length);
}

export function createNodeAuthorizer(deps: NodeAuthorizerDeps = {}): SyncAuthorizer {
  const rules = nodeRules();
  const withSelectors = deps.authorizeNodeWithSelectors ?? true;
  const related = deps.isRelatedToNode ?? (() => false);
  const step = (decision: DecisionValue, reason: string, notes?: string[]): TraceStep => ({
    authorizer: 'Node',
    ...(deps.name ? { name: deps.name } : {}),
    decision,
    reason,
    ...(notes ? { notes } : {}),
  });

  function viaGraph(node: string, vertex: NodeGraphVertex, a: Attributes): TraceStep {
    if (!a.name) return step('NoOpinion', 'No Object name found');
    if (!related(node, vertex, a.namespace, a.name)) return step('NoOpinion', `no relationship found between node '${node}' and this object`);
    return step('Allow', '', [`${vertex} ${a.namespace ? `${a.namespace}/` : ''}${a.name} is related to node ${node}`]);
  }
  function readNamespaced(node: string, vertex: NodeGraphVertex, a: Attributes): TraceStep {
    if (!['get', 'list', 'watch'].includes(a.verb)) return step('NoOpinion', 'can only read resources of this type');
    if (a.subresource) return step('NoOpinion', 'cannot read subresource');
    if (!a.namespace) return step('NoOpinion', 'can only read namespaced object of this type');
    return viaGraph(node, vertex, a);
  }
  function getOnly(node: string, vertex: NodeGraphVertex, a: Attributes): TraceStep {
    if (a.verb !== 'get') return step('NoOpinion', 'can only get individual resources of this type');
    if (a.subresource) return step('NoOpinion', 'cannot get subresource');
    return viaGraph(node, vertex, a);
  }
  function byOwnName(node: string, a: Attributes, what: string): TraceStep {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return step('NoOpinion', `can only get, create, update, patch, or delete a ${what}`);
    if (what === 'node lease' && a.namespace !== 'kube-node-lease') return step('NoOpinion', 'can only access leases in the "kube-node-lease" system namespace');
    if (what === 'CSINode' && a.subresource) return step('NoOpinion', 'cannot authorize CSINode subresources');
    // The name is unknown on create; NodeRestriction admission checks it there.
    if (a.verb !== 'create' && a.name !== node) return step('NoOpinion', `can only access ${what} with the same name as the requesting node`);
    return step('Allow', '');
  }
  function nodeObject(node: string, a: Attributes): TraceStep {
    if (a.subresource === '') {
      if (['create', 'update', 'patch'].includes(a.verb)) return step('Allow', '');
      if (['get', 'list', 'watch'].includes(a.verb)) {
        if (a.name === node) return step('Allow', '');
        if (a.name === '') return step('NoOpinion', `node '${node}' cannot read all nodes, only its own Node object`);
        return step('NoOpinion', `node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return step('Allow', '');
    }
    return step('NoOpinion', '');
  }
  function pod(node: string, a: Attributes): TraceStep {
    switch (a.verb) {
      case 'get':
        return getOnly(node, 'pod', a);
      case 'list':
      case 'watch':
        if (a.subresource === '' && a.fieldSelectorRequirements?.some((r) => r.key === 'spec.nodeName' && r.operator === 'In' && r.values?.length === 1 && r.values[0] === node)) {
          return step('Allow', '');
        }
        return step('NoOpinion', 'can only list/watch pods with spec.nodeName field selector');
      case 'create':
        if (a.subresource === '' || a.subresource === 'eviction') return step('Allow', '');
        break;
      case 'delete':
        if (a.subresource === '') return step('Allow', '');
        break;
      case 'update':
      case 'patch':
        if (a.subresource === 'status') return step('Allow', '');
        break;
    }
    return step('NoOpinion', '');
  }

  return {
    type: 'Node',
    ...(deps.name ? { name: deps.name } : {}),
    authorize(a) {
      const node = nodeIdentity(a.user);
      if (node === undefined) return step('NoOpinion', '');
      if (node === '') return step('NoOpinion', `unknown node for user ${JSON.stringify(a.user.username)}`);
      if (a.resourceRequest) {
        const gr = `${a.apiGroup}/${a.resource}`;
        switch (gr) {
          case '/secrets':
            return readNamespaced(node, 'secret', a);
          case '/configmaps':
            return readNamespaced(node, 'configmap', a);
          case '/persistentvolumeclaims':
            if (a.subresource === 'status') {
              if (a.verb !== 'update' && a.verb !== 'patch') return step('NoOpinion', 'can only get/update/patch this type');
              return viaGraph(node, 'pvc', a);
            }
            return getOnly(node, 'pvc', a);
          case '/persistentvolumes':
            return getOnly(node, 'pv', a);
          case 'resource.k8s.io/resourceclaims':
            return getOnly(node, 'resourceclaim', a);
          case 'storage.k8s.io/volumeattachments':
            return getOnly(node, 'volumeattachment', a);
          case '/serviceaccounts':
            if (a.verb !== 'create' || !a.name) return step('NoOpinion', 'can only create tokens for individual service accounts');
            if (a.subresource !== 'token') return step('NoOpinion', 'can only create token subresource of serviceaccount');
            return viaGraph(node, 'serviceaccount', a);
          case 'coordination.k8s.io/leases':
            return byOwnName(node, a, 'node lease');
          case 'storage.k8s.io/csinodes':
            return byOwnName(node, a, 'CSINode');
          case '/nodes':
            if (withSelectors) return nodeObject(node, a);
            break;
          case '/pods':
            if (withSelectors) return pod(node, a);
            break;
        }
      }
      if (rulesAllow(a, rules)) return step('Allow', '', ['allowed by the static node rules']);
      return step('NoOpinion', '');
    },
    rulesFor(user) {
      if (nodeIdentity(user) !== undefined) {
        return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' };
      }
      return { resourceRules: [], nonResourceRules: [], incomplete: false };
    },
  };
}
