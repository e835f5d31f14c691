// The query parameters the console offers, with the inputs they take.
// Names and values are the API's own (k8s.io/apimachinery ListOptions,
// CreateOptions, PatchOptions, DeleteOptions).

export type QueryField =
  | { readonly name: string; readonly kind: 'text'; readonly placeholder?: string }
  | { readonly name: string; readonly kind: 'flag'; readonly value: string }
  | { readonly name: string; readonly kind: 'choice'; readonly options: readonly string[] };

export interface QueryGroup {
  readonly title: string;
  readonly fields: readonly QueryField[];
}

export const QUERY_GROUPS: readonly QueryGroup[] = [
  {
    title: 'Reads',
    fields: [
      { name: 'labelSelector', kind: 'text', placeholder: 'app=web,tier!=db' },
      { name: 'fieldSelector', kind: 'text', placeholder: 'metadata.name=example' },
      { name: 'resourceVersion', kind: 'text', placeholder: '0' },
      { name: 'resourceVersionMatch', kind: 'choice', options: ['', 'NotOlderThan', 'Exact'] },
      { name: 'limit', kind: 'text', placeholder: '500' },
      { name: 'continue', kind: 'text' },
    ],
  },
  {
    title: 'Watch',
    fields: [
      { name: 'watch', kind: 'flag', value: 'true' },
      { name: 'allowWatchBookmarks', kind: 'flag', value: 'true' },
      { name: 'sendInitialEvents', kind: 'flag', value: 'true' },
      { name: 'timeoutSeconds', kind: 'text', placeholder: '300' },
    ],
  },
  {
    title: 'Writes',
    fields: [
      { name: 'fieldManager', kind: 'text', placeholder: 'kubetab' },
      { name: 'force', kind: 'flag', value: 'true' },
      { name: 'dryRun', kind: 'flag', value: 'All' },
      { name: 'fieldValidation', kind: 'choice', options: ['', 'Ignore', 'Warn', 'Strict'] },
      { name: 'propagationPolicy', kind: 'choice', options: ['', 'Orphan', 'Background', 'Foreground'] },
    ],
  },
];

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const ACCEPT_PRESETS: ReadonlyArray<readonly [string, string]> = [
  ['JSON', 'application/json'],
  ['YAML', 'application/yaml'],
  ['Table', 'application/json;as=Table;v=v1;g=meta.k8s.io'],
  ['Metadata only', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io'],
  ['Aggregated discovery', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'],
];

export const CONTENT_TYPE_PRESETS: ReadonlyArray<readonly [string, string]> = [
  ['JSON', 'application/json'],
  ['YAML', 'application/yaml'],
  ['Apply patch (YAML)', 'application/apply-patch+yaml'],
  ['Merge patch', 'application/merge-patch+json'],
  ['Strategic merge patch', 'application/strategic-merge-patch+json'],
  ['JSON patch', 'application/json-patch+json'],
];

/** Methods that carry a body. */
export function hasBody(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH';
}
