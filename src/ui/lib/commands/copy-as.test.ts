import { describe, expect, it } from 'vitest';
import { shellQuote, toCurl, toKubectl, toServeCurl } from './copy-as';

describe('copy as command line', () => {
  it('quotes for a POSIX shell', () => {
    expect(shellQuote('/api/v1')).toBe('/api/v1');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  it('curl: method, URL, headers and the body as a here-document', () => {
    const curl = toCurl({
      method: 'PATCH',
      url: 'http://127.0.0.1:1/api/v1/namespaces/default/configmaps/a?fieldManager=me',
      headers: [['Content-Type', 'application/apply-patch+yaml']],
      body: 'kind: ConfigMap',
    });
    expect(curl).toBe(`curl -X PATCH 'http://127.0.0.1:1/api/v1/namespaces/default/configmaps/a?fieldManager=me' -H 'Content-Type: application/apply-patch+yaml' --data-binary @- <<'EOF'\nkind: ConfigMap\nEOF`);
  });

  it('curl of a watch streams (-N)', () => {
    expect(toCurl({ method: 'GET', url: 'http://h/api/v1/pods?watch=true', headers: [], body: '' })).toBe(`curl -N 'http://h/api/v1/pods?watch=true'`);
  });

  it('kubectl: get --raw without the app base path, impersonation as --as flags', () => {
    const command = toKubectl(
      { method: 'GET', url: 'http://h/kubetab/api/v1/namespaces?limit=5', headers: [['Impersonate-User', 'jane'], ['Impersonate-Group', 'devs']], body: '' },
      '/kubetab/',
    );
    expect(command).toBe(`kubectl get --raw '/api/v1/namespaces?limit=5' --as=jane --as-group=devs`);
  });

  it('kubectl: server-side apply keeps field manager, force and dry run', () => {
    const command = toKubectl({
      method: 'PATCH',
      url: 'http://h/apis/apps/v1/namespaces/default/deployments/d?fieldManager=me&force=true&dryRun=All',
      headers: [['Content-Type', 'application/apply-patch+yaml']],
      body: 'kind: Deployment\n',
    });
    expect(command).toBe(`kubectl apply --server-side -f - --field-manager=me --force-conflicts --dry-run=server <<'EOF'\nkind: Deployment\nEOF`);
  });

  it('kubectl: a merge patch becomes kubectl patch with the resource and group', () => {
    const command = toKubectl({
      method: 'PATCH',
      url: 'http://h/apis/apps/v1/namespaces/web/deployments/d',
      headers: [['Content-Type', 'application/merge-patch+json']],
      body: '{"spec":{"replicas":3}}',
    });
    expect(command).toBe(`kubectl patch deployments.apps d -n web --type=merge -p '{"spec":{"replicas":3}}'`);
  });
});

describe('copy as curl for the Node server (issue 16 item 25: the tab cannot be reached by curl)', () => {
  const target = { server: 'https://127.0.0.1:8080', kubeconfig: './kubeconfig', base: '/kubetab/' };
  const request = {
    method: 'GET',
    url: 'http://static.host/kubetab/api/v1/namespaces/default/configmaps?limit=5',
    headers: [
      ['Accept', 'application/json'],
      ['Authorization', 'Bearer tab-token'],
    ] as Array<[string, string]>,
    body: '',
  };

  it("takes the token and CA from the kubeconfig, not the tab's", () => {
    expect(toServeCurl(request, target, { kind: 'admin' }).split('\n')).toEqual([
      "# This page's API server runs inside the browser tab, where curl cannot reach it. The same request",
      "# to KubeTab's Node server, started with: npm run serve -- --port 8080 --kubeconfig ./kubeconfig",
      "TOKEN=$(kubectl --kubeconfig ./kubeconfig config view --raw --minify -o jsonpath='{.users[0].user.token}')",
      "kubectl --kubeconfig ./kubeconfig config view --raw --minify -o jsonpath='{.clusters[0].cluster.certificate-authority-data}' | base64 -d > kubetab-ca.crt",
      `curl --cacert kubetab-ca.crt 'https://127.0.0.1:8080/api/v1/namespaces/default/configmaps?limit=5' -H "Authorization: Bearer $TOKEN" -H 'Accept: application/json'`,
    ]);
  });

  it('impersonates another user; anonymous and --open send no credentials', () => {
    expect(toServeCurl(request, target, { kind: 'impersonated', user: 'jane' })).toContain(`-H "Authorization: Bearer $TOKEN" -H 'Accept: application/json' -H 'Impersonate-User: jane'`);
    expect(toServeCurl(request, target, { kind: 'anonymous' })).not.toContain('TOKEN');
    const open = toServeCurl(request, { ...target, server: 'http://127.0.0.1:9000/' }, { kind: 'admin' });
    expect(open).toContain('npm run serve -- --open --port 9000');
    expect(open).toContain(`curl 'http://127.0.0.1:9000/api/v1/namespaces/default/configmaps?limit=5' -H 'Accept: application/json'`);
    expect(open).not.toContain('tab-token');
  });
});
