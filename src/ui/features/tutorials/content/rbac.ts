// Tutorial (b): RBAC — from a forbidden request to a Role and a RoleBinding
// that allow it, a write refused as privilege escalation, and a ClusterRole
// filled by aggregation.

import { servedAs, type AuditEntry, type TutorialContext } from '../context';
import { fail, pass, type Tutorial } from '../model';

const NS = 'rbac-demo';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const PODS = `/api/v1/namespaces/${NS}/pods`;

const ROLE = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
  namespace: ${NS}
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch"]
`;

const BINDING = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: jane-reads-pods
  namespace: ${NS}
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: User
  name: jane
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: pod-reader
`;

const ROLE_MANAGER = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: role-manager
  namespace: ${NS}
rules:
- apiGroups: ["rbac.authorization.k8s.io"]
  resources: ["roles", "rolebindings"]
  verbs: ["create", "update", "get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: jane-manages-roles
  namespace: ${NS}
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: User
  name: jane
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: role-manager
`;

const SECRET_READER = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name: 'secret-reader', namespace: NS },
  rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }],
};

const AGGREGATED = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: pod-watchers
aggregationRule:
  clusterRoleSelectors:
  - matchLabels:
      tutorial.kubetab.dev/aggregate-to-pod-watchers: "true"
rules: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: pod-watchers-core
  labels:
    tutorial.kubetab.dev/aggregate-to-pod-watchers: "true"
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["watch"]
`;

const janeLists = (r: AuditEntry, code: number) =>
  servedAs(r) === 'jane' && r.event.verb === 'list' && r.event.objectRef?.resource === 'pods' && r.event.objectRef.namespace === NS && r.event.responseStatus?.code === code;

async function openConsoleAsJane(ctx: TutorialContext, request: { method: string; path: string; body?: string; contentType?: string }) {
  const identityId = await ctx.ensureTokenIdentity('jane');
  ctx.openConsole({
    method: request.method,
    path: request.path,
    identityId,
    headers: [{ name: 'Accept', value: 'application/json' }, ...(request.contentType ? [{ name: 'Content-Type', value: request.contentType }] : [])],
    body: request.body ?? '',
  });
}

export const rbac: Tutorial = {
  id: 'rbac',
  title: 'RBAC: from 403 to a working Role',
  summary: 'A forbidden request, the Role and RoleBinding that allow it, an escalation the server refuses, and a ClusterRole built by aggregation.',
  steps: [
    {
      id: 'forbidden',
      title: 'A forbidden request',
      body: [
        'jane is a user of this cluster (a static token in its configuration) with no rights beyond discovery. Prepare the namespace `rbac-demo`, then list its pods as jane from the console.',
        'The server knows who jane is (authentication succeeded) but no authorizer allows the request: 403 Forbidden, with a message naming the user, verb, resource and namespace.',
      ],
      actions: [
        {
          label: 'Prepare the namespace',
          run: async (ctx) => {
            await ctx.ensure('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
            return `Namespace ${NS} is there.`;
          },
        },
        { label: 'Open the console as jane', run: (ctx) => openConsoleAsJane(ctx, { method: 'GET', path: PODS }) },
      ],
      checks: 'the server answered 403 to jane listing pods in rbac-demo.',
      async check(ctx) {
        const hit = (await ctx.audit()).find((r) => janeLists(r, 403));
        return hit ? pass(`403: ${hit.event.responseStatus?.message ?? ''}`) : fail('No list of pods in rbac-demo by jane answered 403 yet.');
      },
    },
    {
      id: 'role',
      title: 'A Role',
      body: [
        'A Role is a list of rules inside one namespace: which verbs on which resources of which API groups. It grants nothing by itself.',
        'Apply the Role `pod-reader` from the editor (as the administrator).',
      ],
      actions: [
        {
          label: 'Open the Role in the editor',
          run: async (ctx) => {
            ctx.useAdministrator();
            ctx.openEditor(ROLE, 'kubetab');
          },
        },
      ],
      checks: 'Role pod-reader in rbac-demo lets list pods.',
      async check(ctx) {
        const role = (await ctx.get(`${RBAC}/namespaces/${NS}/roles/pod-reader`)) as { rules?: Array<{ verbs?: string[]; resources?: string[] }> } | null;
        if (!role) return fail('There is no Role pod-reader in rbac-demo yet.');
        const ok = (role.rules ?? []).some((r) => (r.verbs ?? []).some((v) => v === 'list' || v === '*') && (r.resources ?? []).some((x) => x === 'pods' || x === '*'));
        return ok ? pass('pod-reader has a rule for list on pods.') : fail('pod-reader has no rule that lets list pods.');
      },
    },
    {
      id: 'binding',
      title: 'A RoleBinding',
      body: [
        'A RoleBinding gives a role to subjects — users, groups or service accounts — in its namespace. Bind `pod-reader` to jane.',
      ],
      actions: [
        {
          label: 'Open the RoleBinding in the editor',
          run: async (ctx) => {
            ctx.useAdministrator();
            ctx.openEditor(BINDING, 'kubetab');
          },
        },
      ],
      checks: 'a RoleBinding in rbac-demo gives Role pod-reader to User jane.',
      async check(ctx) {
        const list = await ctx.api('GET', `${RBAC}/namespaces/${NS}/rolebindings`);
        const items = (list.json?.items ?? []) as Array<{ subjects?: Array<{ kind: string; name: string }>; roleRef: { kind: string; name: string } }>;
        const found = items.some((b) => b.roleRef.kind === 'Role' && b.roleRef.name === 'pod-reader' && (b.subjects ?? []).some((s) => s.kind === 'User' && s.name === 'jane'));
        return found ? pass('jane is bound to pod-reader in rbac-demo.') : fail('No RoleBinding in rbac-demo binds pod-reader to jane yet.');
      },
    },
    {
      id: 'allowed',
      title: 'Allowed now',
      body: [
        'Send the same request as jane again: 200 OK. The Access view shows the decision step by step — RBAC finds the binding, its role, and the rule that matches.',
      ],
      actions: [
        { label: 'Open the console as jane', run: (ctx) => openConsoleAsJane(ctx, { method: 'GET', path: PODS }) },
        { label: 'See the decision in Access', run: async (ctx) => ctx.openAccess({ tab: 'check', user: 'jane', groups: 'developers, system:authenticated', verb: 'list', group: '', resource: 'pods', namespace: NS }) },
      ],
      checks: 'the server answered 200 to jane listing pods in rbac-demo.',
      async check(ctx) {
        return (await ctx.audit()).some((r) => janeLists(r, 200)) ? pass('jane listed the pods of rbac-demo: 200.') : fail('No list of pods in rbac-demo by jane answered 200 yet.');
      },
    },
    {
      id: 'escalation',
      title: 'Escalation refused',
      body: [
        'Being allowed to create Roles is not enough to create any Role: RBAC refuses a Role that grants more than its author holds (unless the author may `escalate`). Otherwise anyone who can write Roles could give themselves everything.',
        'First, as the administrator, let jane manage Roles in rbac-demo. Then, as jane, try to create a Role that reads Secrets — which jane cannot do herself.',
      ],
      actions: [
        {
          label: '1. Let jane manage Roles (editor)',
          run: async (ctx) => {
            ctx.useAdministrator();
            ctx.openEditor(ROLE_MANAGER, 'kubetab');
          },
        },
        {
          label: '2. As jane, create a Role for Secrets (console)',
          run: (ctx) => openConsoleAsJane(ctx, { method: 'POST', path: `${RBAC}/namespaces/${NS}/roles`, body: JSON.stringify(SECRET_READER, null, 2), contentType: 'application/json' }),
        },
      ],
      checks: 'jane was allowed to create Roles, yet her Role for Secrets was refused with 403.',
      async check(ctx) {
        const hit = (await ctx.audit()).find(
          (r) => servedAs(r) === 'jane' && r.event.verb === 'create' && r.event.objectRef?.resource === 'roles' && r.event.objectRef.namespace === NS && r.event.responseStatus?.code === 403 && r.authorization?.decision === 'Allow',
        );
        return hit ? pass(`Authorized, then refused: ${hit.event.responseStatus?.message ?? '403'}`) : fail('No Role creation by jane in rbac-demo that was authorized and then refused with 403 yet.');
      },
    },
    {
      id: 'aggregation',
      title: 'Aggregation',
      body: [
        'A ClusterRole with an `aggregationRule` has no rules of its own: a controller fills them with the rules of every ClusterRole whose labels match its selectors. The default `admin`, `edit` and `view` roles grow this way when CRDs add roles labelled for them.',
        'Apply both ClusterRoles, then read `pod-watchers` again: it holds the rule of `pod-watchers-core`.',
      ],
      actions: [
        {
          label: 'Open both ClusterRoles in the editor',
          run: async (ctx) => {
            ctx.useAdministrator();
            ctx.openEditor(AGGREGATED, 'kubetab');
          },
        },
      ],
      checks: 'ClusterRole pod-watchers holds a rule for watch on pods.',
      async check(ctx) {
        const role = (await ctx.get(`${RBAC}/clusterroles/pod-watchers`)) as { rules?: Array<{ verbs?: string[]; resources?: string[] }> } | null;
        if (!role) return fail('There is no ClusterRole pod-watchers yet.');
        const ok = (role.rules ?? []).some((r) => r.verbs?.includes('watch') && r.resources?.includes('pods'));
        return ok ? pass('pod-watchers was filled with the rule of pod-watchers-core.') : fail('pod-watchers has no rule for watch on pods (yet): is pod-watchers-core labelled?');
      },
    },
  ],
};
