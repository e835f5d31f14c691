// Where kube-apiserver 1.32 keeps each resource in etcd, and the two-way map
// between those keys and KubeTab's own storage keys (src/core/api/storage-keys.ts:
// /registry/<group|core>/<resource>/[<namespace>/]<name>).
//
// kube's rule (DefaultStorageFactory.ResourcePrefix and the aggregated
// servers' storage factories):
// - resources of kube-apiserver proper are kept under `<prefix>/<resource>/`,
//   whatever their group, except the compiled-in special prefixes:
//   replicationcontrollers → controllers, endpoints → services/endpoints,
//   nodes → minions, services → services/specs, ingresses → ingress;
// - the apiextensions and apiregistration servers (CRDs, APIServices) and
//   custom resources use `<prefix>/<group>/<resource>/`.
// The rest of the key is kube's too: `<namespace>/<name>` or `<name>`.
//
// KubeTab also stores a few records that are not API objects (the service
// account signing key, the test issuer's key). kube keeps no such thing in
// etcd; they live under `<prefix>/kubetab.io/keys/<KubeTab key>`, a place no
// kube resource can take (a group is a DNS subdomain and `keys` is never a
// custom resource's plural in group `kubetab.io`).

import type { ResourceDefinition } from '../../../core/kinds/types';

/** The compiled-in exceptions of kube-apiserver 1.32 (pkg/kubeapiserver/default_storage_factory_builder.go). */
const SPECIAL_PREFIXES: Readonly<Record<string, string>> = {
  '/replicationcontrollers': 'controllers',
  '/endpoints': 'services/endpoints',
  '/nodes': 'minions',
  '/services': 'services/specs',
  'networking.k8s.io/ingresses': 'ingress',
  'extensions/ingresses': 'ingress',
};

/** Groups served by servers whose storage prefix is `<group>/<resource>` (apiextensions-apiserver, kube-aggregator). */
const GROUP_PREFIXED = new Set(['apiextensions.k8s.io', 'apiregistration.k8s.io']);

/** KubeTab's records that are not API objects. */
const OPAQUE_AREA = 'kubetab.io/keys';

export interface ResourceLocation {
  /** '' for the core group. */
  readonly group: string;
  readonly resource: string;
  /** The definition of a built-in resource; undefined for a custom resource. */
  readonly builtin?: ResourceDefinition;
}

export interface MappedKey {
  readonly etcdKey: string;
  /** The resource the key belongs to; undefined for KubeTab's own records. */
  readonly location?: ResourceLocation;
}

export class KubeKeyLayout {
  /** `<group>/<resource>` → the built-in definition (core group as ''). */
  private readonly builtins = new Map<string, ResourceDefinition>();
  /** kube's etcd prefix of each built-in kept without its group → its `<group>/<resource>`. */
  private readonly flatPrefixes = new Map<string, string>();
  /** The flat prefixes, longest first (services/specs before services). */
  private readonly flatOrder: string[];
  /** `--etcd-prefix` with exactly one trailing slash. */
  readonly root: string;

  constructor(etcdPrefix: string, builtins: readonly ResourceDefinition[]) {
    const trimmed = etcdPrefix.replace(/\/+$/, '');
    this.root = `${trimmed.startsWith('/') || trimmed === '' ? trimmed : `/${trimmed}`}/`;
    for (const definition of builtins) {
      if (definition.virtual || definition.sharedStorage) continue;
      const id = `${definition.group}/${definition.plural}`;
      this.builtins.set(id, definition);
      if (!GROUP_PREFIXED.has(definition.group)) this.flatPrefixes.set(SPECIAL_PREFIXES[id] ?? definition.plural, id);
    }
    this.flatOrder = [...this.flatPrefixes.keys()].sort((a, b) => b.length - a.length);
  }

  /** The etcd key of a KubeTab storage key. */
  toEtcd(key: string): MappedKey {
    const parsed = parseKubeTabKey(key);
    if (parsed) {
      const { group, resource, rest } = parsed;
      const id = `${group}/${resource}`;
      const builtin = this.builtins.get(id);
      if (builtin && !GROUP_PREFIXED.has(group)) {
        return { etcdKey: `${this.root}${SPECIAL_PREFIXES[id] ?? resource}/${rest}`, location: { group, resource, builtin } };
      }
      // A group name has a dot (CRD validation requires one): custom resources, CRDs, APIServices.
      if (group.includes('.')) {
        return { etcdKey: `${this.root}${group}/${resource}/${rest}`, location: builtin ? { group, resource, builtin } : { group, resource } };
      }
    }
    return { etcdKey: `${this.root}${OPAQUE_AREA}${key}` };
  }

  /** The KubeTab key of an etcd key under the prefix; undefined for keys KubeTab does not know (kube's ranges, masterleases, …). */
  fromEtcd(etcdKey: string): MappedKey | undefined {
    if (!etcdKey.startsWith(this.root)) return undefined;
    const path = etcdKey.slice(this.root.length);
    if (path.startsWith(`${OPAQUE_AREA}/`)) return { etcdKey };
    for (const flat of this.flatOrder) {
      if (path.length > flat.length + 1 && path.startsWith(flat) && path[flat.length] === '/') {
        const id = this.flatPrefixes.get(flat)!;
        const builtin = this.builtins.get(id)!;
        return { etcdKey, location: { group: builtin.group, resource: builtin.plural, builtin } };
      }
    }
    const slash = path.indexOf('/');
    const group = slash > 0 ? path.slice(0, slash) : '';
    if (!group.includes('.')) return undefined;
    const second = path.indexOf('/', slash + 1);
    if (second <= slash + 1 || second === path.length - 1) return undefined;
    const resource = path.slice(slash + 1, second);
    const builtin = this.builtins.get(`${group}/${resource}`);
    return { etcdKey, location: builtin ? { group, resource, builtin } : { group, resource } };
  }

  /** The KubeTab key an etcd key stands for (see fromEtcd). */
  kubeTabKey(etcdKey: string): string | undefined {
    const mapped = this.fromEtcd(etcdKey);
    if (!mapped) return undefined;
    const path = etcdKey.slice(this.root.length);
    if (!mapped.location) return path.slice(OPAQUE_AREA.length);
    const { group, resource, builtin } = mapped.location;
    const head = builtin && !GROUP_PREFIXED.has(group) ? `${SPECIAL_PREFIXES[`${group}/${resource}`] ?? resource}/` : `${group}/${resource}/`;
    return `/registry/${group || 'core'}/${resource}/${path.slice(head.length)}`;
  }
}

/** `/registry/<group|core>/<resource>/<rest>` → its parts ('' group for core); undefined for any other key. */
export function parseKubeTabKey(key: string): { group: string; resource: string; rest: string } | undefined {
  const match = /^\/registry\/([^/]+)\/([^/]+)\/(.+)$/.exec(key);
  if (!match) return undefined;
  const group = match[1] === 'core' ? '' : match[1]!;
  return { group, resource: match[2]!, rest: match[3]! };
}
