// --runtime-config: comma-separated `<key>[=<value>]`, an omitted value meaning
// true. Keys: `api/all`, `api/ga`, `api/beta`, `api/alpha`, `<group>/<version>`
// (the core group is `v1` or `api/v1`) and `<group>/<version>/<resource>`.
// Later keys override earlier ones only by specificity: a resource key beats a
// group-version key, which beats the api/* keys.

export interface RuntimeConfig {
  readonly all?: boolean;
  readonly levels: Partial<Record<'ga' | 'beta' | 'alpha', boolean>>;
  readonly groupVersions: ReadonlyMap<string, boolean>;
  readonly resources: ReadonlyMap<string, boolean>;
}

export class RuntimeConfigError extends Error {}

function parseBool(value: string, key: string): boolean {
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new RuntimeConfigError(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing "${value}": invalid syntax`);
}

export function parseRuntimeConfig(text: string): RuntimeConfig {
  const groupVersions = new Map<string, boolean>();
  const resources = new Map<string, boolean>();
  const levels: Partial<Record<'ga' | 'beta' | 'alpha', boolean>> = {};
  let all: boolean | undefined;
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const eq = entry.indexOf('=');
    const key = eq === -1 ? entry : entry.slice(0, eq);
    const enabled = parseBool(eq === -1 ? '' : entry.slice(eq + 1), key);
    if (key === 'api/all') all = enabled;
    else if (key === 'api/ga') levels.ga = enabled;
    else if (key === 'api/beta') levels.beta = enabled;
    else if (key === 'api/alpha') levels.alpha = enabled;
    else {
      const parts = key.replace(/^api\//, '').split('/');
      // The core group is written `v1` (or `api/v1`); named groups `group/version`.
      const [group, version, resource] = parts.length === 1 || (parts.length === 2 && /^v\d/.test(parts[0]!)) ? ['', ...parts] : parts;
      if (!version) throw new RuntimeConfigError(`invalid key ${key}`);
      if (resource) resources.set(`${group}/${version}/${resource}`, enabled);
      else groupVersions.set(`${group}/${version}`, enabled);
    }
  }
  return { all, levels, groupVersions, resources };
}

function levelOf(version: string): 'ga' | 'beta' | 'alpha' {
  if (version.includes('alpha')) return 'alpha';
  if (version.includes('beta')) return 'beta';
  return 'ga';
}

export function isVersionEnabled(config: RuntimeConfig, group: string, version: string, enabledByDefault: boolean): boolean {
  const explicit = config.groupVersions.get(`${group}/${version}`);
  if (explicit !== undefined) return explicit;
  const level = config.levels[levelOf(version)];
  if (level !== undefined) return level;
  if (config.all !== undefined) return config.all;
  return enabledByDefault;
}

export function isResourceEnabled(config: RuntimeConfig, group: string, version: string, resource: string): boolean {
  return config.resources.get(`${group}/${version}/${resource}`) ?? true;
}
