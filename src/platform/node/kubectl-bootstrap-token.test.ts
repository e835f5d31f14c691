// Bootstrap tokens on the Node server's secure default set-up, as on a
// kubeadm cluster (--enable-bootstrap-token-auth on): a token Secret in
// kube-system authenticates `kubectl --token <id>.<secret>` as
// system:bootstrap:<id> in system:bootstrappers, and stops working once the
// Secret is deleted.
// Spec 001 "Bootstrap tokens". Assertions are on what kubectl prints.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectl, kubectlRunner } from './testing/kubectl-runner';
import { startSecureKubectlHost, type SecureKubectlHost } from './testing/secure-kubectl-host';

const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('kubectl-bootstrap-token.test.ts: kubectl is not installed: the kubectl tests are skipped.');

let server: SecureKubectlHost;
const { run: kubectl, ok } = kubectlRunner(KUBECTL ?? 'kubectl', () => ({ kubeconfig: server.kubeconfig, dir: server.dir }));

const TOKEN = 'abcdef.0123456789abcdef';
const tokenSecret = `apiVersion: v1
kind: Secret
metadata:
  name: bootstrap-token-abcdef
  namespace: kube-system
type: bootstrap.kubernetes.io/token
stringData:
  token-id: abcdef
  token-secret: 0123456789abcdef
  usage-bootstrap-authentication: "true"
  usage-bootstrap-signing: "true"
  auth-extra-groups: system:bootstrappers:kubeadm:default-node-token
`;

describe.skipIf(!KUBECTL)('kubectl with a bootstrap token against the secured Node server', () => {
  beforeAll(async () => {
    server = await startSecureKubectlHost('kubetab-kubectl-bootstrap-');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('authenticates as system:bootstrap:<id> and is refused again once the Secret is gone', async () => {
    const before = await kubectl(['--token', TOKEN, 'auth', 'whoami']);
    expect(before.code).toBe(1);
    expect(before.stderr).toContain('error: You must be logged in to the server (Unauthorized)');

    await ok(['apply', '-f', '-'], tokenSecret);
    const who = await ok(['--token', TOKEN, 'auth', 'whoami']);
    expect(who).toMatch(/^Username\s+system:bootstrap:abcdef$/m);
    // kube lists the default group and the extra groups as a sorted set.
    expect(who).toMatch(/^Groups\s+\[system:bootstrappers system:bootstrappers:kubeadm:default-node-token system:authenticated\]$/m);

    await ok(['delete', 'secret', 'bootstrap-token-abcdef', '-n', 'kube-system']);
    const after = await kubectl(['--token', TOKEN, 'auth', 'whoami']);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
  }, 120_000);
});
