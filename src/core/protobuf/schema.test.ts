// The generated table against facts of the 1.32 generated.proto files and Go
// types (field numbers, JSON names, pointers, inline structs).

import { describe, expect, it } from 'vitest';
import { protoKinds } from './generated/kinds';
import { protoPackages } from './generated/messages';
import { fieldMessage, protoMessage, protoMessageForKind } from './schema';

const field = (message: string, json: string) => protoMessage(message)!.fields.find((f) => f.json === json)!;

describe('the generated protobuf table', () => {
  it('every message reference resolves (the table is closed)', () => {
    for (const [pkg, messages] of Object.entries(protoPackages)) {
      for (const name of Object.keys(messages)) {
        const m = protoMessage(`${pkg}.${name}`)!;
        for (const f of m.fields) if (f.messageName) expect(() => fieldMessage(f), `${pkg}.${name}.${f.json}`).not.toThrow();
      }
    }
  });

  it('knows the kinds kubectl sends as protobuf', () => {
    expect(protoMessageForKind('v1', 'ConfigMap')?.fullName).toBe('k8s.io.api.core.v1.ConfigMap');
    expect(protoMessageForKind('authentication.k8s.io/v1', 'TokenRequest')?.fullName).toBe('k8s.io.api.authentication.v1.TokenRequest');
    expect(protoMessageForKind('authorization.k8s.io/v1', 'SelfSubjectAccessReview')).toBeDefined();
    expect(protoMessageForKind('policy/v1', 'Eviction')).toBeDefined();
    expect(protoMessageForKind('apps/v1', 'DeleteOptions')?.fullName).toBe('k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions');
    expect(protoMessageForKind('apiextensions.k8s.io/v1', 'CustomResourceDefinition')).toBeDefined();
    expect(protoMessageForKind('apiregistration.k8s.io/v1', 'APIService')).toBeDefined();
    // Group-versions a 1.32 server does not serve are absent.
    expect(protoKinds['extensions/v1beta1']).toBeUndefined();
    expect(protoMessageForKind('admissionregistration.k8s.io/v1beta1', 'MutatingWebhookConfiguration')).toBeUndefined();
  });

  it('field numbers and types follow generated.proto', () => {
    // core/v1 Container: name=1 … ports=6 … resources=8 … tty=18 … restartPolicy=24 (1.32).
    const container = protoMessage('k8s.io.api.core.v1.Container')!;
    expect(container.byNumber.get(6)?.json).toBe('ports');
    expect(container.byNumber.get(24)?.json).toBe('restartPolicy');
    expect(container.byNumber.get(18)?.goName).toBe('TTY');
    // ObjectMeta: managedFields=17; 15 (clusterName) and 16 are gone.
    const meta = protoMessage('k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta')!;
    expect(meta.byNumber.get(17)?.json).toBe('managedFields');
    expect(meta.byNumber.has(15)).toBe(false);
    expect(field('k8s.io.api.core.v1.Secret', 'data')).toMatchObject({ map: true, scalar: 'bytes' });
    expect(field('k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'generation')).toMatchObject({ scalar: 'int64' });
  });

  it('JSON names that differ from the proto names', () => {
    expect(protoMessage('k8s.io.api.authentication.v1.BoundObjectReference')!.byNumber.get(4)?.json).toBe('uid'); // proto uID
    expect(protoMessage('k8s.io.api.core.v1.DaemonEndpoint')!.byNumber.get(1)?.json).toBe('Port'); // JSON really is "Port"
    const schema = protoMessage('k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')!;
    expect(schema.byNumber.get(3)?.json).toBe('$ref');
    expect(schema.byNumber.get(38)?.json).toBe('x-kubernetes-preserve-unknown-fields');
  });

  it('pointers, omitempty and inline structs', () => {
    expect(field('k8s.io.api.apps.v1.DeploymentSpec', 'replicas').nullable).toBe(true);
    expect(field('k8s.io.api.apps.v1.DeploymentSpec', 'paused')).toMatchObject({ nullable: false, emitZero: false });
    expect(field('k8s.io.api.core.v1.Container', 'name').emitZero).toBe(true);
    expect(field('k8s.io.api.core.v1.Volume', 'volumeSource').inline).toBe(true);
    expect(field('k8s.io.api.core.v1.Probe', 'handler').inline).toBe(true);
    expect(protoMessage('k8s.io.apimachinery.pkg.apis.meta.v1.Time')!.special).toBe('time');
    expect(protoMessage('k8s.io.api.authentication.v1.ExtraValue')!.special).toBe('list');
  });
});
