import { describe, expect, it } from 'vitest';
import { fieldsInMessage } from './message-fields';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  spec: { template: { spec: { containers: [{ name: 'sidecar' }, { name: 'nginx', image: 'nginx', bogusField: true }] } } },
};

describe('fields named by a server message (issue 16 item 27)', () => {
  it("finds server-side apply's structured-merge-diff path and resolves its list key", () => {
    const message = 'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers[name="nginx"].bogusField: field not declared in schema';
    expect(fieldsInMessage(message, deployment)).toEqual([
      { text: '.spec.template.spec.containers[name="nginx"].bogusField', path: ['spec', 'template', 'spec', 'containers', 1, 'bogusField'] },
    ]);
  });

  it('finds each path of several errors, and stops at a list item the document lacks', () => {
    const message = 'errors:\n  .spec.replicas: expected numeric, got string\n  .spec.template.spec.containers[name="gone"].image: field not declared in schema';
    expect(fieldsInMessage(message, deployment).map((f) => f.path)).toEqual([
      ['spec', 'replicas'],
      ['spec', 'template', 'spec', 'containers'],
    ]);
  });

  it('finds the JSON paths of strict decoding errors and warnings', () => {
    expect(fieldsInMessage('strict decoding error: unknown field "spec.template.spec.containers[1].bogusField", unknown field "spec.x"', deployment).map((f) => f.path)).toEqual([
      ['spec', 'template', 'spec', 'containers', 1, 'bogusField'],
      ['spec', 'x'],
    ]);
  });

  it('finds nothing in a message without a field', () => {
    expect(fieldsInMessage('deployments.apps "web" not found', deployment)).toEqual([]);
  });
});
