// Facts of the 1.32 subresources whose operations are not "an object in, an
// object out", for the served OpenAPI documents.
//
// Connect subresources (exec, attach, portforward, proxy) are served by a
// rest.Connecter: kube's installer publishes one `connect` operation per HTTP
// method the connecter accepts, with the fields of its options kind
// (PodExecOptions, …) as query parameters, and a string response of any media
// type. Their options kinds are not in components.schemas, so the parameters
// are listed here. A proxy also has a `/{path}` variant.
//
// pods/log is a rest.GetterWithOptions: a GET whose query parameters are
// PodLogOptions' fields (sinceTime is not one: a metav1.Time is not a query
// parameter type) and whose response is a string, also as text/plain.

export type QueryParameterType = 'string' | 'integer' | 'boolean';

export interface ConnectFacts {
  /** The HTTP methods of the connecter, lower case as OpenAPI path items name them. */
  readonly methods: readonly string[];
  /** Query parameters from the options kind's fields (a []string or []int32 field is one parameter of its element type). */
  readonly query: readonly (readonly [string, QueryParameterType])[];
  /** Whether a `/{path}` variant is served too (proxies). */
  readonly withPath?: boolean;
}

const STREAM_METHODS = ['get', 'post'];
// kube's proxy REST accepts every method of net/http's proxy handler.
const PROXY_METHODS = ['delete', 'get', 'head', 'options', 'patch', 'post', 'put'];
const PROXY: ConnectFacts = { methods: PROXY_METHODS, query: [['path', 'string']], withPath: true };
const STREAMS: readonly (readonly [string, QueryParameterType])[] = [
  ['stderr', 'boolean'],
  ['stdin', 'boolean'],
  ['stdout', 'boolean'],
  ['tty', 'boolean'],
];

/** Options kind of a connect subresource → its operations' facts. */
export const CONNECT_SUBRESOURCES: Readonly<Record<string, ConnectFacts>> = {
  PodAttachOptions: { methods: STREAM_METHODS, query: [['container', 'string'], ...STREAMS] },
  PodExecOptions: { methods: STREAM_METHODS, query: [['command', 'string'], ['container', 'string'], ...STREAMS] },
  PodPortForwardOptions: { methods: STREAM_METHODS, query: [['ports', 'integer']] },
  PodProxyOptions: PROXY,
  ServiceProxyOptions: PROXY,
  NodeProxyOptions: PROXY,
};

export interface GetterWithOptionsFacts {
  readonly query: readonly (readonly [string, QueryParameterType])[];
  /** Media types beyond the object ones the response is also produced as. */
  readonly extraMediaTypes: readonly string[];
}

/** "<group>/<resource>/<subresource>" of a GET with options and a string response → its facts. */
export const GETTER_WITH_OPTIONS: Readonly<Record<string, GetterWithOptionsFacts>> = {
  '/pods/log': {
    query: [
      ['container', 'string'],
      ['follow', 'boolean'],
      ['insecureSkipTLSVerifyBackend', 'boolean'],
      ['limitBytes', 'integer'],
      ['previous', 'boolean'],
      ['sinceSeconds', 'integer'],
      ['stream', 'string'],
      ['tailLines', 'integer'],
      ['timestamps', 'boolean'],
    ],
    extraMediaTypes: ['text/plain'],
  },
};
