import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeconfigText } from './kubeconfig';

// Rule: the written kubeconfig lets kubectl reach the server with no other set-up (cluster, user, context, current-context).
describe('kubeconfigText', () => {
  it('names one cluster, user and context and makes it current', () => {
    const config = parse(kubeconfigText({ server: 'http://127.0.0.1:8080' }));
    expect(config).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kubetab', cluster: { server: 'http://127.0.0.1:8080' } }],
      users: [{ name: 'kubetab-admin', user: {} }],
      contexts: [{ name: 'kubetab', context: { cluster: 'kubetab', user: 'kubetab-admin' } }],
      'current-context': 'kubetab',
      preferences: {},
    });
  });

  it('carries a token and a CA when given', () => {
    const config = parse(kubeconfigText({ server: 'https://127.0.0.1:6443', token: 't0k', certificateAuthorityData: 'PEM' }));
    expect(config.users[0].user).toEqual({ token: 't0k' });
    expect(config.clusters[0].cluster['certificate-authority-data']).toBe(Buffer.from('PEM').toString('base64'));
  });
});
