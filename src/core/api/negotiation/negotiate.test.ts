// Response content negotiation as kube-apiserver 1.32 does it
// (handlers/negotiation): which encoding a client gets for its Accept header,
// and the 406 NotAcceptable it gets when nothing fits. Spec: "Media types"
// (JSON default, YAML, protobuf with a JSON fallback, CBOR behind a gate,
// Table with a JSON fallback; 406 when nothing is supported).

import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../util/testing/thrown';
import { StatusError } from '../../errors/status';
import {
  DEFAULT_ENDPOINT_RESTRICTIONS,
  DISCOVERY_ENDPOINT_RESTRICTIONS,
  isPrettyPrint,
  negotiateErrorOutput,
  negotiateResponse,
  parseAccept,
  resourceEndpointRestrictions,
  supportedMediaTypes,
  type NegotiationRequest,
} from './index';

const OFFERS = supportedMediaTypes();
const RESOURCE = resourceEndpointRestrictions();
const NOT_ACCEPTABLE = 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';

function negotiate(accept: string | null, extra: Partial<NegotiationRequest> = {}, watch = false) {
  return negotiateResponse({ accept, ...extra }, OFFERS, { restrictions: RESOURCE, watch });
}

const statusOf = (f: () => unknown): StatusError => thrownBy(f, StatusError);

describe('Accept parsing (goautoneg)', () => {
  it('orders clauses by q, then concrete types before wildcards; ties keep their order', () => {
    const clauses = parseAccept('text/*;q=0.5, */*;q=0.1, application/yaml, application/json;q=0.9');
    expect(clauses.map((c) => `${c.type}/${c.subType}`)).toEqual(['application/yaml', 'application/json', 'text/*', '*/*']);
  });

  it('reads parameters, keeps q out of them, and takes "*" as "*/*"', () => {
    const [c] = parseAccept('application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(c!.params).toEqual({ as: 'Table', v: 'v1', g: 'meta.k8s.io' });
    expect(parseAccept('*')[0]).toMatchObject({ type: '*', subType: '*' });
  });

  it('drops a range without a slash and treats an unparsable q as 0', () => {
    expect(parseAccept('json, application/json')).toHaveLength(1);
    expect(parseAccept('application/json;q=abc')[0]!.q).toBe(0);
  });
});

describe('choosing the response encoding', () => {
  it('no Accept header (or an empty one): JSON', () => {
    expect(negotiate(null).contentType).toBe('application/json');
    expect(negotiate('').contentType).toBe('application/json');
  });

  it('*/* and application/* pick the first serializer, JSON', () => {
    expect(negotiate('*/*').contentType).toBe('application/json');
    expect(negotiate('application/*').contentType).toBe('application/json');
  });

  it('application/yaml gets YAML', () => {
    const out = negotiate('application/yaml');
    expect(out.contentType).toBe('application/yaml');
    expect(out.serializer.mediaType).toBe('application/yaml');
  });

  it('kubectl and client-go ask for protobuf with a JSON fallback: protobuf, the first acceptable', () => {
    expect(negotiate('application/vnd.kubernetes.protobuf, */*').contentType).toBe('application/vnd.kubernetes.protobuf');
    expect(negotiate('application/vnd.kubernetes.protobuf,application/json').contentType).toBe('application/vnd.kubernetes.protobuf');
    expect(negotiate('application/vnd.kubernetes.protobuf').contentType).toBe('application/vnd.kubernetes.protobuf');
  });

  it('the client\'s order decides, after q: JSON first stays JSON, a higher q wins', () => {
    expect(negotiate('application/json, application/vnd.kubernetes.protobuf').contentType).toBe('application/json');
    expect(negotiate('application/json;q=0.5, application/vnd.kubernetes.protobuf').contentType).toBe('application/vnd.kubernetes.protobuf');
    expect(negotiate('application/vnd.kubernetes.protobuf;q=0.9, application/json').contentType).toBe('application/json');
    // */* takes the first serializer in kube's order: JSON.
    expect(negotiate('*/*').contentType).toBe('application/json');
    // goautoneg's ordering puts a concrete type before */* even at a lower q: protobuf.
    expect(negotiate('*/*, application/vnd.kubernetes.protobuf;q=0.8').contentType).toBe('application/vnd.kubernetes.protobuf');
    expect(negotiate('application/*').contentType).toBe('application/json');
  });

  it('protobuf not servable (a custom resource\'s endpoint) falls through, and alone is a 406 listing protobuf', () => {
    const noProtobuf = supportedMediaTypes({ protobufServable: false });
    const out = negotiateResponse('application/vnd.kubernetes.protobuf, application/json', noProtobuf, { restrictions: RESOURCE });
    expect(out.contentType).toBe('application/json');
    const err = statusOf(() => negotiateResponse('application/vnd.kubernetes.protobuf', noProtobuf, { restrictions: RESOURCE }));
    expect(err.code).toBe(406);
    expect(err.status.reason).toBe('NotAcceptable');
    expect(err.status.message).toBe(NOT_ACCEPTABLE);
  });

  it('Table has no protobuf form in 1.32: a protobuf Table clause is skipped', () => {
    expect(negotiate('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/json').contentType).toBe('application/json');
    expect(statusOf(() => negotiate('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io')).code).toBe(406);
  });

  it('PartialObjectMetadata may be protobuf (any media type), sent as application/vnd.kubernetes.protobuf', () => {
    const out = negotiate('application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json');
    expect(out.contentType).toBe('application/vnd.kubernetes.protobuf');
    expect(out.options.convert).toEqual({ group: 'meta.k8s.io', version: 'v1', kind: 'PartialObjectMetadata' });
  });

  it('a watch in protobuf streams application/vnd.kubernetes.protobuf;stream=watch', () => {
    expect(negotiate('application/vnd.kubernetes.protobuf, application/json', {}, true).contentType).toBe('application/vnd.kubernetes.protobuf;stream=watch');
  });

  it('an unknown media type is a 406', () => {
    expect(statusOf(() => negotiate('text/html')).status.message).toBe(NOT_ACCEPTABLE);
  });

  it('type and subtype are case-sensitive, as in goautoneg', () => {
    expect(statusOf(() => negotiate('Application/JSON')).code).toBe(406);
  });

  it('q=0 does not exclude a type (kube only sorts by q)', () => {
    expect(negotiate('application/json;q=0').contentType).toBe('application/json');
  });

  it('a higher q wins over order', () => {
    expect(negotiate('application/json;q=0.5, application/yaml').contentType).toBe('application/yaml');
  });

  it('CBOR is served only when the CBORServingAndStorage gate is on, and then listed in the 406', () => {
    expect(statusOf(() => negotiate('application/cbor')).status.message).toBe(NOT_ACCEPTABLE);
    const withCbor = supportedMediaTypes({ cbor: true, cborServable: true });
    expect(negotiateResponse({ accept: 'application/cbor' }, withCbor, { restrictions: RESOURCE }).contentType).toBe('application/cbor');
    const err = statusOf(() => negotiateResponse({ accept: 'text/plain' }, withCbor, { restrictions: RESOURCE }));
    expect(err.status.message).toBe(`${NOT_ACCEPTABLE}, application/cbor`);
  });
});

describe('transforms: Table and PartialObjectMetadata', () => {
  it('kubectl get asks for a v1 Table with v1beta1 and JSON fallbacks: it gets the v1 Table as plain application/json', () => {
    const out = negotiate('application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json');
    expect(out.options.convert).toEqual({ group: 'meta.k8s.io', version: 'v1', kind: 'Table' });
    expect(out.contentType).toBe('application/json');
  });

  it('Table in meta.k8s.io v1beta1 and as YAML', () => {
    expect(negotiate('application/json;as=Table;v=v1beta1;g=meta.k8s.io').options.convert?.version).toBe('v1beta1');
    expect(negotiate('application/yaml;as=Table;v=v1;g=meta.k8s.io').contentType).toBe('application/yaml');
  });

  it('Table without a table convertor, or in another group/version, is skipped', () => {
    const noTables = resourceEndpointRestrictions({ tableConvertor: false });
    expect(negotiateResponse({ accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json' }, OFFERS, { restrictions: noTables }).options.convert).toBeUndefined();
    expect(negotiate('application/json;as=Table;v=v2;g=meta.k8s.io, application/json').options.convert).toBeUndefined();
    expect(negotiate('application/json;as=Table, application/json').options.convert).toBeUndefined();
  });

  it('PartialObjectMetadata and PartialObjectMetadataList (v1 and v1beta1)', () => {
    expect(negotiate('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1').options.convert?.kind).toBe('PartialObjectMetadata');
    expect(negotiate('application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1').options.convert?.kind).toBe('PartialObjectMetadataList');
  });

  it('an unknown as= falls back to the next clause, or is a 406 without one', () => {
    expect(negotiate('application/json;as=Foo;g=meta.k8s.io;v=v1, application/json').options.convert).toBeUndefined();
    expect(statusOf(() => negotiate('application/json;as=Foo;g=meta.k8s.io;v=v1')).status.message).toBe(NOT_ACCEPTABLE);
  });

  it('endpoints without transforms (errors, legacy discovery) skip transform clauses', () => {
    expect(negotiateResponse({ accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json' }, OFFERS, { restrictions: DEFAULT_ENDPOINT_RESTRICTIONS }).options.convert).toBeUndefined();
  });

  it('pretty=1 in the media type, and unknown parameters are ignored', () => {
    const out = negotiate('application/json;pretty=1;foo=bar');
    expect(out.pretty).toBe(true);
    expect(out.options.unrecognized).toEqual(['foo']);
  });

  it('sv must be the meta version; an unsupported one skips the clause', () => {
    expect(negotiate('application/json;sv=v1').options.useServerVersion).toBe('v1');
    expect(statusOf(() => negotiate('application/json;sv=v2')).code).toBe(406);
  });
});

describe('aggregated discovery', () => {
  const discovery = (accept: string) =>
    negotiateResponse({ accept }, OFFERS, { restrictions: DISCOVERY_ENDPOINT_RESTRICTIONS, withGVKInContentType: true });

  it('client-go asks for v2, then v2beta1, then the legacy document; v2 wins with the GVK in the Content-Type', () => {
    const out = discovery(
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
    );
    expect(out.options.convert).toEqual({ group: 'apidiscovery.k8s.io', version: 'v2', kind: 'APIGroupDiscoveryList' });
    expect(out.contentType).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  });

  it('1.32 still serves v2beta1', () => {
    expect(discovery('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList').contentType).toBe(
      'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
    );
  });

  it('a plain Accept is not aggregated: the caller serves the legacy document', () => {
    expect(statusOf(() => discovery('application/json')).code).toBe(406);
    expect(negotiateResponse({ accept: 'application/json' }, OFFERS, { restrictions: DEFAULT_ENDPOINT_RESTRICTIONS }).options.convert).toBeUndefined();
  });
});

describe('watch', () => {
  it('a JSON watch is sent as application/json (kube does not add ;stream=watch for JSON)', () => {
    expect(negotiate('application/json', {}, true).contentType).toBe('application/json');
    expect(negotiate(null, {}, true).contentType).toBe('application/json');
    expect(negotiate('application/json;stream=watch', {}, true).contentType).toBe('application/json');
  });

  it('YAML cannot stream: 406 with the streaming list', () => {
    const err = statusOf(() => negotiate('application/yaml', {}, true));
    expect(err.code).toBe(406);
    expect(err.status.message).toBe(
      'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
    );
  });

  it('the first fitting clause decides even if it cannot stream (application/yaml, application/json → 406)', () => {
    expect(statusOf(() => negotiate('application/yaml, application/json', {}, true)).code).toBe(406);
  });

  it('application/yaml;stream=watch fails the first negotiation: 406 with the plain list', () => {
    expect(statusOf(() => negotiate('application/yaml;stream=watch', {}, true)).status.message).toBe(NOT_ACCEPTABLE);
  });

  it('a watch is never pretty', () => {
    expect(negotiate('application/json', { pretty: 'true' }, true).pretty).toBe(false);
  });

  it('CBOR watches are application/cbor-seq', () => {
    const withCbor = supportedMediaTypes({ cbor: true, cborServable: true });
    expect(negotiateResponse({ accept: 'application/cbor' }, withCbor, { restrictions: RESOURCE, watch: true }).contentType).toBe('application/cbor-seq');
    const err = statusOf(() => negotiateResponse({ accept: 'application/yaml' }, withCbor, { restrictions: RESOURCE, watch: true }));
    expect(err.status.message).toBe(
      'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch, application/cbor-seq',
    );
  });
});

describe('pretty printing', () => {
  it('?pretty decides when given (strconv.ParseBool), otherwise the User-Agent', () => {
    expect(isPrettyPrint('true', null)).toBe(true);
    expect(isPrettyPrint('1', null)).toBe(true);
    expect(isPrettyPrint('T', null)).toBe(true);
    expect(isPrettyPrint('false', 'curl/8.0')).toBe(false);
    expect(isPrettyPrint('yes', null)).toBe(false);
    expect(isPrettyPrint(null, 'curl/8.5.0')).toBe(true);
    expect(isPrettyPrint(null, 'Wget/1.21')).toBe(true);
    expect(isPrettyPrint(null, 'Mozilla/5.0 (X11; Linux x86_64)')).toBe(true);
    expect(isPrettyPrint(null, 'kubectl/v1.32.0 (linux/amd64) kubernetes/abc')).toBe(false);
    expect(isPrettyPrint('', 'curl/8')).toBe(true);
  });

  it('only JSON has a pretty form', () => {
    expect(negotiate('application/json', { pretty: 'true' }).pretty).toBe(true);
    expect(negotiate('application/yaml', { pretty: 'true' }).pretty).toBe(false);
    expect(negotiate('application/json', { userAgent: 'curl/8.5.0' }).pretty).toBe(true);
  });
});

describe('encoding of error responses', () => {
  it('errors are negotiated without transforms: a Table request with a JSON fallback gets JSON', () => {
    expect(negotiateErrorOutput({ accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' }, OFFERS)).toMatchObject({
      contentType: 'application/json',
      pretty: false,
    });
  });

  it('a protobuf client gets its error in protobuf', () => {
    expect(negotiateErrorOutput({ accept: 'application/vnd.kubernetes.protobuf' }, OFFERS)).toMatchObject({ contentType: 'application/vnd.kubernetes.protobuf', pretty: false });
  });

  it('when nothing fits (the 406 itself), the Status is indented JSON', () => {
    expect(negotiateErrorOutput({ accept: 'text/html' }, OFFERS)).toEqual({ contentType: 'application/json', pretty: true });
    expect(negotiateErrorOutput({ accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }, OFFERS)).toEqual({ contentType: 'application/json', pretty: true });
  });

  it('a YAML client gets its error in YAML', () => {
    expect(negotiateErrorOutput({ accept: 'application/yaml' }, OFFERS).contentType).toBe('application/yaml');
  });
});

describe('negotiateResponse with just the Accept header', () => {
  it('takes a string', () => {
    expect(negotiateResponse('application/yaml', OFFERS, { restrictions: RESOURCE }).contentType).toBe('application/yaml');
    expect(negotiateResponse(null, OFFERS).contentType).toBe('application/json');
  });
});
