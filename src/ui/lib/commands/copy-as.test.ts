import { describe, expect, it } from 'vitest';
import { shellQuote, toCurl, toKubectl } from './copy-as';

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
