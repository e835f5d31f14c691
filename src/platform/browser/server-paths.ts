// Which requests under the app's base path belong to the API server. The
// service worker answers these from the core; everything else (the app's own
// files) goes to the network as if there were no worker.

/** Top-level paths kube-apiserver serves (and KubeTab's core answers). */
export const SERVER_PATH_PREFIXES: readonly string[] = [
  '/api',
  '/apis',
  '/version',
  '/healthz',
  '/livez',
  '/readyz',
  '/openapi',
  '/.well-known/openid-configuration',
  '/openid',
  '/metrics',
  // KubeTab's own endpoints: the audit log with authorization traces, the OIDC test issuer.
  '/kubetab/v1',
];

/** True for a path (already stripped of the base path) that the core answers. */
export function isServerPath(path: string): boolean {
  return SERVER_PATH_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** Normalises a base path to start and end with '/': '' → '/', 'kubetab' → '/kubetab/'. */
export function normalizeBase(base: string): string {
  let b = base.trim();
  if (!b.startsWith('/')) b = `/${b}`;
  if (!b.endsWith('/')) b = `${b}/`;
  return b.replace(/\/{2,}/g, '/');
}

/**
 * The server path of a URL path under `base` ('/kubetab/api/v1' under
 * '/kubetab/' → '/api/v1'), or undefined when the path is outside the base.
 */
export function stripBase(pathname: string, base: string): string | undefined {
  const b = normalizeBase(base);
  if (b === '/') return pathname;
  if (!pathname.startsWith(b)) return undefined;
  return `/${pathname.slice(b.length)}`;
}
