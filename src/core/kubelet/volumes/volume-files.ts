// A volume's content as the container sees it under its mount path: files
// by path relative to the volume's root (and the directories they imply).
// ConfigMap, Secret, downwardAPI and projected volumes are read-only and
// their files are rewritten when the source object changes (the kubelet's
// periodic resync does it within a minute); emptyDir is writable and shared
// by the pod's containers; hostPath is writable and shared by every pod of
// the node that mounts the same path.

export class VolumeFiles {
  private readonly files = new Map<string, string>();
  private readonly dirs = new Set<string>();

  constructor(
    readonly readOnly: boolean,
    initial: Iterable<[string, string]> = [],
  ) {
    for (const [path, content] of initial) this.put(path, content);
  }

  /** Replaces the whole content (an atomic writer's swap of its ..data directory). */
  replace(entries: Iterable<[string, string]>): void {
    this.files.clear();
    this.dirs.clear();
    for (const [path, content] of entries) this.put(path, content);
  }

  snapshot(): Map<string, string> {
    return new Map(this.files);
  }

  /** Writes a file by relative path (parents become directories). */
  put(relative: string, content: string): void {
    const clean = trim(relative);
    this.files.set(clean, content);
    const parts = clean.split('/');
    for (let i = 1; i < parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'));
  }

  read(relative: string): string | undefined {
    return this.files.get(trim(relative));
  }

  remove(relative: string): boolean {
    return this.files.delete(trim(relative));
  }

  mkdir(relative: string): void {
    const parts = trim(relative).split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'));
  }

  isDirectory(relative: string): boolean {
    const clean = trim(relative);
    return clean === '' || this.dirs.has(clean);
  }

  list(relative: string): string[] | undefined {
    const clean = trim(relative);
    if (!this.isDirectory(clean)) return undefined;
    const prefix = clean === '' ? '' : `${clean}/`;
    const names = new Set<string>();
    for (const path of [...this.files.keys(), ...this.dirs]) {
      if (!path.startsWith(prefix) || path === clean) continue;
      const name = path.slice(prefix.length).split('/')[0];
      if (name) names.add(name);
    }
    return [...names].sort();
  }
}

function trim(path: string): string {
  return path.replace(/^\/+|\/+$/g, '').replace(/\/+/g, '/');
}
