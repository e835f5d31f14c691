// kubectl 1.32 against the Node server where it reads /openapi/v2 (the
// gnostic protobuf client-go's OpenAPISchema() asks for): `kubectl create -f`
// of review kinds, whose OpenAPI has no PATCH operation, so kubectl validates
// them client-side with the v2 schemas instead of leaving it to the server's
// fieldValidation; the validation errors it prints for unknown fields and a
// missing required field; and `kubectl explain --output=plaintext-openapiv2`
// (descriptions are absent in KubeTab: no upstream text is copied). Spec 000
// "Discovery and OpenAPI", spec 001 "Review objects and endpoints". Every
// assertion is on what kubectl prints.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectl, kubectlRunner } from './testing/kubectl-runner';
import { startSecureKubectlHost, type SecureKubectlHost } from './testing/secure-kubectl-host';

const KUBECTL = findKubectl();
if (!KUBECTL) console.warn('kubectl-openapi.test.ts: kubectl is not installed (not on PATH, KUBECTL unset): the kubectl tests are skipped.');

let server: SecureKubectlHost;
const { run: kubectl, ok } = kubectlRunner(KUBECTL ?? 'kubectl', () => ({ kubeconfig: server.kubeconfig, dir: server.dir }));

/** Writes a manifest into the test directory and returns its path (kubectl names the file in its errors). */
function manifest(name: string, yaml: string): string {
  const path = join(server.dir, name);
  writeFileSync(path, yaml);
  return path;
}

const IGNORE_HINT = '; if you choose to ignore these errors, turn validation off with --validate=false';

describe.skipIf(!KUBECTL)('kubectl reading /openapi/v2 from the Node server', () => {
  beforeAll(async () => {
    server = await startSecureKubectlHost('kubetab-kubectl-openapi-');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('creates a SelfSubjectRulesReview with validation on (client-side, from the v2 schemas)', async () => {
    const file = manifest('ssrr.yaml', 'apiVersion: authorization.k8s.io/v1\nkind: SelfSubjectRulesReview\nspec:\n  namespace: default\n');
    const run = await kubectl(['create', '-f', file]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('selfsubjectrulesreview.authorization.k8s.io/<unknown> created\n');
    expect(run.code).toBe(0);
  });

  it('creates a SubjectAccessReview and a TokenReview, printing the server\'s answer', async () => {
    const sar = manifest(
      'sar.yaml',
      'apiVersion: authorization.k8s.io/v1\nkind: SubjectAccessReview\nspec:\n  user: jane\n  resourceAttributes:\n    namespace: default\n    verb: get\n    resource: pods\n',
    );
    expect(await ok(['create', '-f', sar])).toBe('subjectaccessreview.authorization.k8s.io/<unknown> created\n');
    expect(await ok(['create', '-f', sar, '-o', 'jsonpath={.status.allowed}'])).toBe('false');
    const tr = manifest('tr.yaml', 'apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nspec:\n  token: not-a-token\n');
    expect(await ok(['create', '-f', tr])).toBe('tokenreview.authentication.k8s.io/<unknown> created\n');
  });

  it('refuses unknown fields of a kind without PATCH with kubectl\'s client-side validation errors', async () => {
    const file = manifest('bad.yaml', 'apiVersion: authorization.k8s.io/v1\nkind: SelfSubjectRulesReview\nspec:\n  namespace: default\n  bogus: 1\nextra: true\n');
    const run = await kubectl(['create', '-f', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `error: error validating "${file}": error validating data: [` +
        'ValidationError(SelfSubjectRulesReview): unknown field "extra" in io.k8s.api.authorization.v1.SelfSubjectRulesReview, ' +
        'ValidationError(SelfSubjectRulesReview.spec): unknown field "bogus" in io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec]' +
        `${IGNORE_HINT}\n`,
    );
    // Validation off: the same manifest goes to the server, which drops the unknown fields.
    expect(await ok(['create', '-f', file, '--validate=false'])).toBe('selfsubjectrulesreview.authorization.k8s.io/<unknown> created\n');
  });

  it('reports a missing required field from the v2 schema', async () => {
    const file = manifest('no-spec.yaml', 'apiVersion: authorization.k8s.io/v1\nkind: SubjectAccessReview\nmetadata:\n  name: x\n');
    const run = await kubectl(['create', '-f', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: error validating "${file}": error validating data: ValidationError(SubjectAccessReview): missing required field "spec" in io.k8s.api.authorization.v1.SubjectAccessReview${IGNORE_HINT}\n`,
    );
  });

  it('explains pods from the v2 document (kubectl explain --output=plaintext-openapiv2)', async () => {
    const out = await ok(['explain', 'pods', '--output=plaintext-openapiv2']);
    expect(out).toMatch(/^KIND:\s+Pod\nVERSION:\s+v1\n/);
    expect(out).toContain('DESCRIPTION:\n     <empty>');
    const fields = [...out.slice(out.indexOf('FIELDS:')).matchAll(/^ {3}(\S+)\t<([^>]*)>/gm)].map((m) => `${m[1]} <${m[2]}>`);
    expect(fields).toEqual(['apiVersion <string>', 'kind <string>', 'metadata <Object>', 'spec <Object>', 'status <Object>']);
    const containers = await ok(['explain', 'pods.spec.containers', '--output=plaintext-openapiv2']);
    expect(containers).toMatch(/^RESOURCE: containers <\[\]Object>$/m);
    expect(containers).toMatch(/^ {3}name\t<string> -required-$/m);
    expect(containers).toMatch(/^ {3}ports\t<\[\]Object>$/m);
  });
});
