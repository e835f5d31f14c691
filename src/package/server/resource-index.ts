// Which resource a kind is, as kubectl finds out: from the server's discovery
// documents (/api, /apis and each group version's resource list). The test
// helpers name objects by apiVersion and kind, or by kind alone (the
// preferred version of the first group that has it, the core group first).
// Custom resources appear once their CRD is established: a kind not found is
// looked up again before it is an error.

export interface ResourceInfo {
  readonly apiVersion: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
}

/** The helpers' way into the server: an in-process GET that resolves to parsed JSON, or undefined on 404. */
export type DiscoveryGet = (path: string) => Promise<unknown>;

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

export class ResourceIndex {
  private byApiVersionKind = new Map<string, ResourceInfo>();
  private byKind = new Map<string, ResourceInfo>();
  private loaded: Promise<void> | undefined;

  constructor(private readonly get: DiscoveryGet) {}

  /** Forgets what it knew (a restored cluster may serve other custom resources). */
  invalidate(): void {
    this.loaded = undefined;
  }

  async resolve(ref: { apiVersion?: string; kind: string }): Promise<ResourceInfo> {
    const found = await this.find(ref);
    if (found) return found;
    this.invalidate();
    const again = await this.find(ref);
    if (again) return again;
    const what = ref.apiVersion ? `${ref.apiVersion}, Kind=${ref.kind}` : `kind ${JSON.stringify(ref.kind)}`;
    throw new Error(`the server has no resource for ${what} (is its CustomResourceDefinition established, or the apiVersion served?)`);
  }

  private async find(ref: { apiVersion?: string; kind: string }): Promise<ResourceInfo | undefined> {
    await (this.loaded ??= this.load().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    }));
    if (ref.apiVersion) {
      const exact = this.byApiVersionKind.get(`${ref.apiVersion}/${ref.kind}`);
      if (exact) return exact;
      // A version the index has not read (not a group's preferred one).
      return this.readVersion(ref.apiVersion, ref.kind);
    }
    return this.byKind.get(ref.kind);
  }

  private async readVersion(apiVersion: string, kind: string): Promise<ResourceInfo | undefined> {
    const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const list = (await this.get(path)) as { resources?: ApiResource[] } | undefined;
    for (const info of this.infos(apiVersion, list?.resources ?? [])) {
      this.byApiVersionKind.set(`${info.apiVersion}/${info.kind}`, info);
    }
    return this.byApiVersionKind.get(`${apiVersion}/${kind}`);
  }

  private infos(apiVersion: string, resources: readonly ApiResource[]): ResourceInfo[] {
    const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/') as [string, string]) : ['', apiVersion];
    return resources.filter((r) => !r.name.includes('/')).map((r) => ({ apiVersion, group, version, kind: r.kind, plural: r.name, namespaced: r.namespaced }));
  }

  private async load(): Promise<void> {
    const byApiVersionKind = new Map<string, ResourceInfo>();
    const byKind = new Map<string, ResourceInfo>();
    const groups = (await this.get('/apis')) as { groups?: { preferredVersion?: { groupVersion: string } }[] } | undefined;
    const versions = ['v1', ...(groups?.groups ?? []).map((g) => g.preferredVersion?.groupVersion).filter((v): v is string => !!v)];
    const lists = await Promise.all(versions.map((v) => this.get(v === 'v1' ? '/api/v1' : `/apis/${v}`)));
    versions.forEach((apiVersion, i) => {
      const list = lists[i] as { resources?: ApiResource[] } | undefined;
      for (const info of this.infos(apiVersion, list?.resources ?? [])) {
        byApiVersionKind.set(`${apiVersion}/${info.kind}`, info);
        if (!byKind.has(info.kind)) byKind.set(info.kind, info);
      }
    });
    this.byApiVersionKind = byApiVersionKind;
    this.byKind = byKind;
  }
}

/** The path of a collection or an object; a namespaced collection with namespace null is the all-namespaces list. */
export function resourcePath(info: ResourceInfo, namespace: string | null | undefined, name?: string): string {
  const base = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  const ns = info.namespaced && namespace !== null ? `/namespaces/${encodeURIComponent(namespace ?? 'default')}` : '';
  return `${base}${ns}/${info.plural}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
}
