// The pods/log and connect subresource paths of the served /openapi/v3
// documents (spec 000 "Discovery and OpenAPI"): a 1.32 server publishes
// pods/log as a GET with PodLogOptions' query parameters answering a string
// (also text/plain), and exec, attach, portforward and the pods / services /
// nodes proxies as `connect` operations, one per HTTP method the connecter
// accepts, with the options kind's fields as query parameters and a string
// response of any media type; a proxy also at `/{path}`.

import { describe, expect, it } from 'vitest';
import type { ResourceDefinition, SubresourceDefinition } from '../kinds/types';
import { builtinSchemaRef } from './builtin-table';
import { renderGroupVersionDocument } from './openapi';

type Param = { name: string; in: string; required?: boolean; schema: { type: string } };
type Operation = {
  operationId: string;
  parameters?: Param[];
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
  'x-kubernetes-action': string;
  'x-kubernetes-group-version-kind': unknown;
};
type PathItem = Record<string, Operation> & { parameters?: Param[] };

const custom = (name: string, kind: string, verbs: SubresourceDefinition['verbs']): SubresourceDefinition => ({ name, kind, verbs, type: 'custom', handler: name });

function resource(kind: string, plural: string, namespaced: boolean, subresources: SubresourceDefinition[]): ResourceDefinition {
  return {
    group: '',
    plural,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    verbs: ['get'],
    versions: [{ name: 'v1', served: true, storage: true, schema: builtinSchemaRef('', 'v1', kind) }],
    subresources,
    strategy: {},
  };
}

const doc = renderGroupVersionDocument({ group: '', version: 'v1' }, [
  resource('Pod', 'pods', true, [
    custom('attach', 'PodAttachOptions', ['create', 'get']),
    custom('exec', 'PodExecOptions', ['create', 'get']),
    custom('log', 'Pod', ['get']),
    custom('portforward', 'PodPortForwardOptions', ['create', 'get']),
    custom('proxy', 'PodProxyOptions', ['create', 'delete', 'get', 'patch', 'update']),
  ]),
  resource('Node', 'nodes', false, [custom('proxy', 'NodeProxyOptions', ['create', 'delete', 'get', 'patch', 'update'])]),
]) as unknown as { paths: Record<string, PathItem>; components: { schemas: Record<string, unknown> } };

const names = (list: Param[] | undefined) => (list ?? []).map((p) => `${p.name}(${p.in}:${p.schema.type})`);
const methods = (item: PathItem) => Object.keys(item).filter((k) => k !== 'parameters');
const POD = '/api/v1/namespaces/{namespace}/pods/{name}';

describe('pods/log', () => {
  const item = doc.paths[`${POD}/log`]!;
  it('is a GET of a string, as text/plain too, with the PodLogOptions query parameters on the path', () => {
    expect(methods(item)).toEqual(['get']);
    expect(item.get!.operationId).toBe('readCoreV1NamespacedPodLog');
    expect(item.get!['x-kubernetes-action']).toBe('get');
    expect(item.get!['x-kubernetes-group-version-kind']).toEqual({ group: '', kind: 'Pod', version: 'v1' });
    const content = item.get!.responses['200']!.content!;
    expect(Object.keys(content).sort()).toEqual(['application/cbor', 'application/json', 'application/vnd.kubernetes.protobuf', 'application/yaml', 'text/plain']);
    for (const media of Object.values(content)) expect(media.schema).toEqual({ type: 'string' });
    // sinceTime is a metav1.Time, which is no query parameter type: not listed.
    expect(names(item.parameters)).toEqual([
      'container(query:string)',
      'follow(query:boolean)',
      'insecureSkipTLSVerifyBackend(query:boolean)',
      'limitBytes(query:integer)',
      'name(path:string)',
      'namespace(path:string)',
      'pretty(query:string)',
      'previous(query:boolean)',
      'sinceSeconds(query:integer)',
      'stream(query:string)',
      'tailLines(query:integer)',
      'timestamps(query:boolean)',
    ]);
    expect(item.get!.parameters).toBeUndefined();
  });
});

describe('connect subresources', () => {
  it('exec: GET and POST connect operations with the PodExecOptions fields as query parameters, no pretty', () => {
    const item = doc.paths[`${POD}/exec`]!;
    expect(methods(item)).toEqual(['get', 'post']);
    expect(item.get!.operationId).toBe('connectCoreV1GetNamespacedPodExec');
    expect(item.post!.operationId).toBe('connectCoreV1PostNamespacedPodExec');
    expect(item.post!['x-kubernetes-action']).toBe('connect');
    expect(item.post!['x-kubernetes-group-version-kind']).toEqual({ group: '', kind: 'PodExecOptions', version: 'v1' });
    expect(item.get!.responses).toEqual({ '200': { content: { '*/*': { schema: { type: 'string' } } } }, '401': {} });
    expect(names(item.parameters)).toEqual([
      'command(query:string)',
      'container(query:string)',
      'name(path:string)',
      'namespace(path:string)',
      'stderr(query:boolean)',
      'stdin(query:boolean)',
      'stdout(query:boolean)',
      'tty(query:boolean)',
    ]);
  });

  it('attach and portforward', () => {
    expect(names(doc.paths[`${POD}/attach`]!.parameters)).toEqual([
      'container(query:string)',
      'name(path:string)',
      'namespace(path:string)',
      'stderr(query:boolean)',
      'stdin(query:boolean)',
      'stdout(query:boolean)',
      'tty(query:boolean)',
    ]);
    const forward = doc.paths[`${POD}/portforward`]!;
    expect(forward.get!.operationId).toBe('connectCoreV1GetNamespacedPodPortforward');
    expect(names(forward.parameters)).toEqual(['name(path:string)', 'namespace(path:string)', 'ports(query:integer)']);
  });

  it('proxy: seven methods, a query `path`, and a /{path} variant with the path parameter sorted before the query one', () => {
    const proxy = doc.paths[`${POD}/proxy`]!;
    expect(methods(proxy).sort()).toEqual(['delete', 'get', 'head', 'options', 'patch', 'post', 'put']);
    expect(proxy.head!.operationId).toBe('connectCoreV1HeadNamespacedPodProxy');
    expect(names(proxy.parameters)).toEqual(['name(path:string)', 'namespace(path:string)', 'path(query:string)']);
    const withPath = doc.paths[`${POD}/proxy/{path}`]!;
    expect(withPath.options!.operationId).toBe('connectCoreV1OptionsNamespacedPodProxyWithPath');
    expect(names(withPath.parameters)).toEqual(['name(path:string)', 'namespace(path:string)', 'path(path:string)', 'path(query:string)']);
    const node = doc.paths['/api/v1/nodes/{name}/proxy/{path}']!;
    expect(node.delete!.operationId).toBe('connectCoreV1DeleteNodeProxyWithPath');
    expect(node.delete!['x-kubernetes-group-version-kind']).toEqual({ group: '', kind: 'NodeProxyOptions', version: 'v1' });
    expect(names(node.parameters)).toEqual(['name(path:string)', 'path(path:string)', 'path(query:string)']);
  });

  it('publishes no schema for the options kinds (they are not in components.schemas)', () => {
    const options = ['PodAttachOptions', 'PodExecOptions', 'PodPortForwardOptions', 'PodProxyOptions', 'NodeProxyOptions', 'PodLogOptions'];
    expect(Object.keys(doc.components.schemas).filter((n) => options.some((o) => n.endsWith(`.${o}`)))).toEqual([]);
    expect(doc.components.schemas['io.k8s.api.core.v1.Pod']).toBeDefined();
  });
});
