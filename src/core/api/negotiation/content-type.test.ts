// The request body's Content-Type as kube-apiserver 1.32 reads it: Go's
// mime.ParseMediaType for create/update bodies, the raw prefix before ";"
// for PATCH, and the 415 UnsupportedMediaType with kube's list otherwise.
// Spec: "Media types" and "PATCH content types".

import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../util/testing/thrown';
import { StatusError } from '../../errors/status';
import { negotiateInputSerializer, parseContentType, patchBodyMediaType, patchTypeFor, supportedMediaTypes, supportedPatchTypes } from './index';

const OFFERS = supportedMediaTypes();
const UNSUPPORTED =
  'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf';

const statusOf = (f: () => unknown): StatusError => thrownBy(f, StatusError);

describe('parseContentType (mime.ParseMediaType)', () => {
  it('lower-cases and trims the type, reads parameters', () => {
    expect(parseContentType(' Application/JSON ; Charset=UTF-8')).toEqual({ mediaType: 'application/json', params: { charset: 'UTF-8' } });
    expect(parseContentType('application/json;charset="utf-8"')).toEqual({ mediaType: 'application/json', params: { charset: 'utf-8' } });
  });

  it('tolerates a trailing ";" but not other malformed parameters', () => {
    expect(parseContentType('application/json;')?.mediaType).toBe('application/json');
    expect(parseContentType('application/json; charset')).toBeUndefined();
    expect(parseContentType('application/json; =x')).toBeUndefined();
  });

  it('rejects malformed types', () => {
    expect(parseContentType('')).toBeUndefined();
    expect(parseContentType('application/')).toBeUndefined();
    expect(parseContentType('application/json/x')).toBeUndefined();
    expect(parseContentType('app lication/json')).toBeUndefined();
  });

  it('accepts a type without a subtype (which then matches nothing)', () => {
    expect(parseContentType('json')?.mediaType).toBe('json');
  });

  it('duplicate parameters must agree', () => {
    expect(parseContentType('application/json; a=1; a=1')?.params).toEqual({ a: '1' });
    expect(parseContentType('application/json; a=1; A=2')).toBeUndefined();
  });
});

describe('create/update body decoder (NegotiateInputSerializer)', () => {
  it('no Content-Type means JSON', () => {
    expect(negotiateInputSerializer(null, OFFERS).mediaType).toBe('application/json');
    expect(negotiateInputSerializer('', OFFERS).mediaType).toBe('application/json');
  });

  it('json and yaml, with parameters and any case', () => {
    expect(negotiateInputSerializer('application/json; charset=utf-8', OFFERS).mediaType).toBe('application/json');
    expect(negotiateInputSerializer('APPLICATION/YAML', OFFERS).mediaType).toBe('application/yaml');
  });

  it('anything else is a 415 with kube\'s message and list', () => {
    for (const ct of ['text/plain', 'application/x-yaml', 'application/json; charset', 'application/merge-patch+json']) {
      const err = statusOf(() => negotiateInputSerializer(ct, OFFERS));
      expect(err.code).toBe(415);
      expect(err.status.reason).toBe('UnsupportedMediaType');
      expect(err.status.message).toBe(UNSUPPORTED);
    }
  });

  it('protobuf bodies are accepted (src/core/protobuf decodes them), unless protobuf is not servable: 415', () => {
    expect(negotiateInputSerializer('application/vnd.kubernetes.protobuf', OFFERS).mediaType).toBe('application/vnd.kubernetes.protobuf');
    expect(statusOf(() => negotiateInputSerializer('application/vnd.kubernetes.protobuf', supportedMediaTypes({ protobufServable: false }))).code).toBe(415);
  });

  it('a streaming body lists the stream media types', () => {
    expect(statusOf(() => negotiateInputSerializer('text/plain', OFFERS, true)).status.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
    );
  });
});

describe('PATCH content types', () => {
  const builtin = supportedPatchTypes({ strategic: true });
  const custom = supportedPatchTypes({ strategic: false });

  it('built-in kinds take json-patch, merge-patch, strategic-merge-patch and apply-patch+yaml', () => {
    expect(builtin).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    expect(supportedPatchTypes({ strategic: true, cbor: true }).at(-1)).toBe('application/apply-patch+cbor');
  });

  it('the type is the header up to ";"', () => {
    expect(patchTypeFor('application/merge-patch+json; charset=utf-8', builtin)).toBe('application/merge-patch+json');
    expect(patchTypeFor('application/apply-patch+yaml', builtin)).toBe('application/apply-patch+yaml');
  });

  it('no lower-casing or trimming: "Application/merge-patch+json" is a 415', () => {
    expect(statusOf(() => patchTypeFor('Application/merge-patch+json', builtin)).code).toBe(415);
    expect(statusOf(() => patchTypeFor(' application/merge-patch+json', builtin)).code).toBe(415);
  });

  it('a plain JSON body on PATCH is a 415 listing the patch types', () => {
    expect(statusOf(() => patchTypeFor('application/json', builtin)).status.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('custom resources refuse strategic merge patch', () => {
    expect(statusOf(() => patchTypeFor('application/strategic-merge-patch+json', custom)).status.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('apply patches are YAML bodies, the others JSON', () => {
    expect(patchBodyMediaType('application/apply-patch+yaml')).toBe('application/yaml');
    expect(patchBodyMediaType('application/strategic-merge-patch+json')).toBe('application/json');
  });
});
