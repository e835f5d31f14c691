import { describe, expect, it } from 'vitest';
import { isServerPath, normalizeBase, stripBase } from './server-paths';

// Rule: the worker answers kube-apiserver's paths under the app's base path (GitHub Pages sub-path included) and nothing else.
describe('server paths', () => {
  it('recognises the API server paths and their children', () => {
    for (const path of ['/api', '/api/v1/pods', '/apis', '/apis/apps/v1', '/version', '/healthz', '/livez/ping', '/readyz?verbose', '/openapi/v3', '/openapi/v3/api/v1', '/kubetab/v1/audit', '/kubetab/v1/oidc/keys'])
      expect(isServerPath(path.split('?')[0]!), path).toBe(true);
  });

  it('leaves the app files to the network', () => {
    for (const path of ['/', '/index.html', '/assets/index-abc.js', '/sw.js', '/api-docs', '/apiserver', '/versions', '/kubetab', '/kubetab/assets/x.js'])
      expect(isServerPath(path), path).toBe(false);
  });

  it('strips the base path', () => {
    expect(stripBase('/kubetab/api/v1', '/kubetab/')).toBe('/api/v1');
    expect(stripBase('/kubetab/version', '/kubetab')).toBe('/version');
    expect(stripBase('/api/v1', '/')).toBe('/api/v1');
    expect(stripBase('/other/api/v1', '/kubetab/')).toBeUndefined();
  });

  it('normalises base paths', () => {
    expect(normalizeBase('')).toBe('/');
    expect(normalizeBase('kubetab')).toBe('/kubetab/');
    expect(normalizeBase('/kubetab/')).toBe('/kubetab/');
  });
});
