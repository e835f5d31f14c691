// The set of served resources: the declared ResourceDefinitions filtered by
// --runtime-config, indexed for routing and ordered for discovery. Custom
// resources are added and removed at run time; listeners hear about it so
// discovery and OpenAPI caches can be dropped.

import type { ResourceDefinition, ResourceVersionDefinition } from '../kinds/types';
import { parseRuntimeConfig, isVersionEnabled, isResourceEnabled, type RuntimeConfig } from './runtime-config';

export interface ServedResource {
  readonly definition: ResourceDefinition;
  readonly version: ResourceVersionDefinition;
  readonly group: string;
  /** The API version string clients use: 'v1' or 'apps/v1'. */
  readonly apiVersion: string;
  /** The version objects are stored in. */
  readonly storageVersion: string;
  readonly groupResource: { group: string; resource: string };
}

export interface ServedGroup {
  readonly name: string;
  /** Served versions, most preferred first. */
  readonly versions: string[];
}

/**
 * kube-apiserver's group order in /apis (the APIService group priorities of
 * a 1.32 server); custom resource groups come after, alphabetically.
 */
const GROUP_ORDER = [
  '',
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'resource.k8s.io',
  'storagemigration.k8s.io',
];

/** Kubernetes version priority: GA > beta > alpha, higher numbers first (k8s.io/apimachinery version.CompareKubeAwareVersionStrings). */
export function compareKubeVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return { ok: false, major: 0, level: 0, minor: 0 };
    const level = m[2] === 'alpha' ? 1 : m[2] === 'beta' ? 2 : 3;
    return { ok: true, major: Number(m[1]), level, minor: Number(m[3] ?? 0) };
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa.ok !== pb.ok) return pa.ok ? -1 : 1;
  if (!pa.ok) return a < b ? -1 : a > b ? 1 : 0;
  if (pa.level !== pb.level) {
    // GA versions first, then beta, then alpha.
    return pb.level - pa.level;
  }
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}

/** metrics.k8s.io's APIService has metrics-server's groupPriorityMinimum 100, below the custom resources' 1000. */
const LAST_GROUPS = ['metrics.k8s.io'];

function groupRank(group: string): number {
  const index = GROUP_ORDER.indexOf(group);
  if (index === -1 && LAST_GROUPS.includes(group)) return GROUP_ORDER.length + 1 + LAST_GROUPS.indexOf(group);
  return index === -1 ? GROUP_ORDER.length : index;
}

export class ResourceRegistry {
  private readonly builtins: ResourceDefinition[];
  private custom: ResourceDefinition[] = [];
  private readonly runtimeConfig: RuntimeConfig;
  private index = new Map<string, ServedResource>();
  private kindIndex = new Map<string, ServedResource>();
  private groupsCache: ServedGroup[] = [];
  private readonly listeners = new Set<() => void>();
  /** Bumped on every change; caches key on it. */
  generation = 0;

  constructor(builtins: readonly ResourceDefinition[], runtimeConfig: string | undefined) {
    this.builtins = [...builtins];
    this.runtimeConfig = parseRuntimeConfig(runtimeConfig ?? '');
    this.rebuild();
  }

  /** Replaces the custom resources (from CRDs) and re-indexes. */
  setCustomResources(definitions: readonly ResourceDefinition[]): void {
    this.custom = [...definitions];
    this.rebuild();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    return this.index.get(`${group}/${version}/${resource}`);
  }

  /** By kind, for bodies and owner references: 'apps/v1/Deployment'. */
  lookupKind(group: string, version: string, kind: string): ServedResource | undefined {
    return this.kindIndex.get(`${group}/${version}/${kind}`);
  }

  /** Any served version of a group/resource, preferred first. */
  lookupGroupResource(group: string, resource: string): ServedResource | undefined {
    const g = this.groupsCache.find((x) => x.name === group);
    if (!g) return undefined;
    for (const v of g.versions) {
      const served = this.lookup(group, v, resource);
      if (served) return served;
    }
    return undefined;
  }

  groups(): readonly ServedGroup[] {
    return this.groupsCache;
  }

  resourcesIn(group: string, version: string): ServedResource[] {
    const out: ServedResource[] = [];
    for (const served of this.index.values()) {
      if (served.group === group && served.version.name === version) out.push(served);
    }
    return out.sort((a, b) => (a.definition.plural < b.definition.plural ? -1 : 1));
  }

  allDefinitions(): ResourceDefinition[] {
    return [...this.builtins, ...this.custom];
  }

  private rebuild(): void {
    const index = new Map<string, ServedResource>();
    const kindIndex = new Map<string, ServedResource>();
    const versionsByGroup = new Map<string, Set<string>>();
    for (const definition of [...this.builtins, ...this.custom]) {
      const storage = definition.versions.find((v) => v.storage) ?? definition.versions[0];
      if (!storage) continue;
      for (const version of definition.versions) {
        if (!version.served) continue;
        const enabled =
          isVersionEnabled(this.runtimeConfig, definition.group, version.name, version.enabledByDefault ?? true) &&
          isResourceEnabled(this.runtimeConfig, definition.group, version.name, definition.plural);
        if (!enabled) continue;
        const apiVersion = definition.group ? `${definition.group}/${version.name}` : version.name;
        const served: ServedResource = {
          definition,
          version,
          group: definition.group,
          apiVersion,
          storageVersion: storage.name,
          groupResource: { group: definition.group, resource: definition.plural },
        };
        index.set(`${definition.group}/${version.name}/${definition.plural}`, served);
        kindIndex.set(`${definition.group}/${version.name}/${definition.kind}`, served);
        let set = versionsByGroup.get(definition.group);
        if (!set) versionsByGroup.set(definition.group, (set = new Set()));
        set.add(version.name);
      }
    }
    this.index = index;
    this.kindIndex = kindIndex;
    this.groupsCache = [...versionsByGroup.entries()]
      .map(([name, versions]) => ({ name, versions: [...versions].sort(compareKubeVersions) }))
      .sort((a, b) => groupRank(a.name) - groupRank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.generation++;
    for (const listener of this.listeners) listener();
  }
}
