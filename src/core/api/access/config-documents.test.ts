// Configuration texts that are plain JSON are read without the YAML parser
// (a cold start of the browser's worker reads them); they must mean exactly
// what the YAML parser makes of them, and be refused the same way.
import { describe, expect, it } from 'vitest';
import { loadAccessConfig } from './config';

const AUTHZ = {
  apiVersion: 'apiserver.config.k8s.io/v1',
  kind: 'AuthorizationConfiguration',
  authorizers: [
    { type: 'Node', name: 'node' },
    { type: 'RBAC', name: 'rbac' },
  ],
};
const AUTHZ_YAML = [
  'apiVersion: apiserver.config.k8s.io/v1',
  'kind: AuthorizationConfiguration',
  'authorizers:',
  '- type: Node',
  '  name: node',
  '- type: RBAC',
  '  name: rbac',
].join('\n');

const load = (text: string) => loadAccessConfig({ 'authorization-config': '/etc/kubernetes/authz' }, async () => text);

describe('access configuration documents', () => {
  it('a JSON text configures what its YAML form configures', async () => {
    const fromJson = await load(JSON.stringify(AUTHZ, null, 2));
    const fromYaml = await load(AUTHZ_YAML);
    expect(fromJson.authorization).toEqual(fromYaml.authorization);
    expect(fromJson.authorization.authorizers.map((a) => a.type)).toEqual(['Node', 'RBAC']);
  });

  it('a JSON text with a duplicate key is refused as the YAML parser refuses it', async () => {
    const text = '{"apiVersion":"apiserver.config.k8s.io/v1","kind":"AuthorizationConfiguration","authorizers":[{"type":"RBAC","name":"rbac"}],"authorizers":[{"type":"Node","name":"node"}]}';
    await expect(load(text)).rejects.toThrow(/^failed to decode \/etc\/kubernetes\/authz: Map keys must be unique/);
  });

  it('a text that is not JSON goes to the YAML parser, whose errors name the file', async () => {
    await expect(load('{"kind": AuthorizationConfiguration')).rejects.toThrow(/^failed to decode \/etc\/kubernetes\/authz: /);
    await expect(load('kind: [unclosed')).rejects.toThrow(/^failed to decode \/etc\/kubernetes\/authz: /);
  });
});
