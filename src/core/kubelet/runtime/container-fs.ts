// The file system a container's processes see: its image's few files (a
// writable layer of its own, lost when the container restarts, as a
// container's root file system is) with the pod's volumes mounted over
// their mount paths. The shell reaches it only through ShellFileSystem.

import type { ShellFileSystem } from '../shell/types';
import { VolumeFiles } from '../volumes/volume-files';

export interface Mount {
  readonly mountPath: string;
  readonly volume: VolumeFiles;
  /** A path inside the volume mounted instead of its root. */
  readonly subPath?: string;
  readonly readOnly: boolean;
}

const READ_ONLY = 'Read-only file system';

export function normalizePath(path: string, cwd = '/'): string {
  const absolute = path.startsWith('/') ? path : `${cwd.replace(/\/$/, '')}/${path}`;
  const out: string[] = [];
  for (const part of absolute.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

export class ContainerFileSystem implements ShellFileSystem {
  /** Longest mount path first, so /etc/config/sub wins over /etc/config. */
  private readonly mounts: Mount[];

  constructor(
    private readonly root: VolumeFiles,
    mounts: readonly Mount[],
  ) {
    this.mounts = [...mounts].sort((a, b) => b.mountPath.length - a.mountPath.length);
  }

  /** Which file system holds a path, and the path inside it. */
  private resolve(path: string): { files: VolumeFiles; relative: string; readOnly: boolean } {
    const p = normalizePath(path);
    for (const m of this.mounts) {
      const mp = normalizePath(m.mountPath);
      if (p === mp || p.startsWith(`${mp === '/' ? '' : mp}/`)) {
        const inside = p.slice(mp.length).replace(/^\//, '');
        const relative = m.subPath ? `${m.subPath.replace(/\/$/, '')}${inside ? `/${inside}` : ''}` : inside;
        return { files: m.volume, relative, readOnly: m.readOnly || m.volume.readOnly };
      }
    }
    return { files: this.root, relative: p.slice(1), readOnly: false };
  }

  read(path: string): string | undefined {
    const { files, relative } = this.resolve(path);
    return files.read(relative);
  }

  write(path: string, content: string, append: boolean): string | undefined {
    const { files, relative, readOnly } = this.resolve(path);
    if (readOnly) return READ_ONLY;
    if (files.isDirectory(relative)) return 'Is a directory';
    const parent = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
    if (!files.isDirectory(parent) && !this.isDirectory(normalizePath(path).replace(/\/[^/]*$/, '') || '/')) return 'No such file or directory';
    files.put(relative, append ? (files.read(relative) ?? '') + content : content);
    return undefined;
  }

  list(path: string): string[] | undefined {
    const p = normalizePath(path);
    const { files, relative } = this.resolve(p);
    const own = files.list(relative);
    // Mount points show in their parent directory.
    const extra = this.mounts
      .map((m) => normalizePath(m.mountPath))
      .filter((mp) => mp !== p && mp.startsWith(p === '/' ? '/' : `${p}/`))
      .map((mp) => mp.slice(p === '/' ? 1 : p.length + 1).split('/')[0]!)
      .filter(Boolean);
    if (!own && extra.length === 0) return undefined;
    return [...new Set([...(own ?? []), ...extra])].sort();
  }

  isDirectory(path: string): boolean {
    const p = normalizePath(path);
    if (this.mounts.some((m) => normalizePath(m.mountPath) === p || normalizePath(m.mountPath).startsWith(p === '/' ? '/' : `${p}/`))) {
      const { files, relative } = this.resolve(p);
      return files.isDirectory(relative) || files.read(relative) === undefined;
    }
    const { files, relative } = this.resolve(p);
    return files.isDirectory(relative);
  }

  remove(path: string): string | undefined {
    const { files, relative, readOnly } = this.resolve(path);
    if (readOnly) return READ_ONLY;
    if (files.isDirectory(relative)) return 'Is a directory';
    return files.remove(relative) ? undefined : 'No such file or directory';
  }

  mkdir(path: string): string | undefined {
    const { files, relative, readOnly } = this.resolve(path);
    if (readOnly) return READ_ONLY;
    if (files.read(relative) !== undefined) return 'File exists';
    files.mkdir(relative);
    return undefined;
  }
}
