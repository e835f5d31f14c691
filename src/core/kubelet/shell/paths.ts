// Path arithmetic for the shell and its utilities: a path resolved against
// the working directory, with `.` and `..` folded (no symbolic links exist
// in the simulated file system).

export function resolvePath(cwd: string, path: string): string {
  const joined = path.startsWith('/') ? path : `${cwd.replace(/\/+$/, '')}/${path}`;
  const out: string[] = [];
  for (const segment of joined.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return '/' + out.join('/');
}

export function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return path.startsWith('/') ? '/' : '';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

export function dirName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return path.startsWith('/') ? '/' : '.';
  const slash = trimmed.lastIndexOf('/');
  if (slash < 0) return '.';
  if (slash === 0) return '/';
  return trimmed.slice(0, slash).replace(/\/+$/, '') || '/';
}
