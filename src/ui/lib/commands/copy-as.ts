// A request as a command line a person can paste: curl (exactly the HTTP
// request) and kubectl (the closest command: --raw for reads and plain
// writes, apply --server-side and patch for patches). The page's API server
// lives inside the browser tab, where no command line reaches it, so the
// commands are written for KubeTab's Node server (`npm run serve`) and its
// kubeconfig: toServeCurl takes the token and CA from there.

import { parseApiPath } from '../api/resource-paths';

export interface CommandRequest {
  readonly method: string;
  /** Absolute URL, query included. */
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}

/** Quotes for a POSIX shell: 'it'\''s'. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_\-./:=,@%+]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function heredoc(body: string): string {
  let marker = 'EOF';
  while (body.split('\n').includes(marker)) marker += '_';
  return `<<'${marker}'\n${body.replace(/\n?$/, '\n')}${marker}`;
}

export function toCurl(request: CommandRequest): string {
  const parts = ['curl'];
  const isWatch = /[?&]watch=(1|true)\b/.test(request.url);
  if (isWatch) parts.push('-N');
  if (request.method !== 'GET' || request.body) parts.push('-X', request.method);
  parts.push(shellQuote(request.url));
  for (const [name, value] of request.headers) parts.push('-H', shellQuote(`${name}: ${value}`));
  let line = parts.join(' ');
  if (request.body) line += ` --data-binary @- ${heredoc(request.body)}`;
  return line;
}

function header(request: CommandRequest, name: string): string[] {
  return request.headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
}

/** Identity and impersonation as kubectl flags. */
function identityFlags(request: CommandRequest): string[] {
  const flags: string[] = [];
  const auth = header(request, 'authorization')[0];
  if (auth?.startsWith('Bearer ')) flags.push(`--token=${shellQuote(auth.slice(7))}`);
  for (const user of header(request, 'impersonate-user')) flags.push(`--as=${shellQuote(user)}`);
  for (const group of header(request, 'impersonate-group')) flags.push(`--as-group=${shellQuote(group)}`);
  for (const uid of header(request, 'impersonate-uid')) flags.push(`--as-uid=${shellQuote(uid)}`);
  return flags;
}

const PATCH_TYPES: Record<string, string> = {
  'application/merge-patch+json': 'merge',
  'application/json-patch+json': 'json',
  'application/strategic-merge-patch+json': 'strategic',
};

/** `base` is the app's base path, which is where the worker answers and not part of the API path. */
export function toKubectl(request: CommandRequest, base = '/'): string {
  const url = new URL(request.url);
  const apiPath = `/${url.pathname.startsWith(base) ? url.pathname.slice(base.length) : url.pathname.replace(/^\//, '')}`;
  const raw = `${apiPath}${url.search}`;
  const who = identityFlags(request);
  const contentType = header(request, 'content-type')[0]?.split(';')[0]?.trim() ?? '';
  const withFlags = (command: string[]) => ['kubectl', ...command, ...who].join(' ');
  switch (request.method) {
    case 'GET':
      return withFlags(['get', '--raw', shellQuote(raw)]);
    case 'DELETE':
      return withFlags(['delete', '--raw', shellQuote(raw)]);
    case 'POST':
      return `${withFlags(['create', '--raw', shellQuote(raw), '-f', '-'])} ${heredoc(request.body)}`;
    case 'PUT':
      return `${withFlags(['replace', '--raw', shellQuote(raw), '-f', '-'])} ${heredoc(request.body)}`;
    case 'PATCH': {
      const params = url.searchParams;
      const target = parseApiPath(apiPath);
      if (contentType === 'application/apply-patch+yaml' || contentType === 'application/apply-patch+cbor') {
        const flags = ['apply', '--server-side', '-f', '-'];
        const manager = params.get('fieldManager');
        if (manager) flags.push(`--field-manager=${shellQuote(manager)}`);
        if (params.get('force') === 'true') flags.push('--force-conflicts');
        if (params.get('dryRun')) flags.push('--dry-run=server');
        if (target?.subresource) flags.push(`--subresource=${target.subresource}`);
        return `${withFlags(flags)} ${heredoc(request.body)}`;
      }
      if (!target?.name) return `# kubectl cannot send this PATCH; use curl\n${toCurl(request)}`;
      const group = target.groupVersion.includes('/') ? `.${target.groupVersion.split('/')[0]}` : '';
      const flags = ['patch', `${target.resource}${group}`, shellQuote(target.name)];
      if (target.namespace) flags.push('-n', shellQuote(target.namespace));
      flags.push(`--type=${PATCH_TYPES[contentType] ?? 'strategic'}`, '-p', shellQuote(request.body.trim()));
      if (target.subresource) flags.push(`--subresource=${target.subresource}`);
      if (params.get('fieldManager')) flags.push(`--field-manager=${shellQuote(params.get('fieldManager')!)}`);
      if (params.get('dryRun')) flags.push('--dry-run=server');
      return withFlags(flags);
    }
    default:
      return `# kubectl has no command for ${request.method}; use curl\n${toCurl(request)}`;
  }
}

/** Where the Node server (`npm run serve`) listens and the kubeconfig it wrote. */
export interface NodeServerTarget {
  /** e.g. https://127.0.0.1:8080 (plain http with --open). */
  readonly server: string;
  readonly kubeconfig: string;
  /** The app's base path, which is where the worker answers and not part of the API path. */
  readonly base: string;
}

/**
 * Who sends the request to the Node server. The tab's tokens mean nothing
 * there: the administrator is the kubeconfig's, another user is impersonated
 * by it (as kubectl --as does), and anonymous sends no credentials.
 */
export type NodeServerSender = { readonly kind: 'admin' } | { readonly kind: 'impersonated'; readonly user: string } | { readonly kind: 'anonymous' };

/** The request without the tab's credentials, and with Impersonate-User for an impersonated sender. */
export function forNodeServer(request: CommandRequest, sender: NodeServerSender): CommandRequest {
  const headers = request.headers.filter(([name]) => name.toLowerCase() !== 'authorization');
  if (sender.kind === 'impersonated' && !headers.some(([name]) => name.toLowerCase() === 'impersonate-user')) headers.push(['Impersonate-User', sender.user]);
  return { ...request, headers };
}

/**
 * curl for the same request against the Node server: the URL rebased on
 * `target.server`, the kubeconfig's administrator token in $TOKEN and its CA
 * in kubetab-ca.crt (over https), preceded by the lines that get them.
 */
export function toServeCurl(request: CommandRequest, target: NodeServerTarget, sender: NodeServerSender): string {
  const url = new URL(request.url);
  const apiPath = url.pathname.startsWith(target.base) ? url.pathname.slice(target.base.length) : url.pathname.replace(/^\//, '');
  const server = target.server.trim().replace(/\/+$/, '');
  const secure = !server.startsWith('http://');
  const port = /:(\d+)$/.exec(server)?.[1] ?? (secure ? '443' : '80');
  const kubeconfig = shellQuote(target.kubeconfig.trim() || './kubeconfig');
  const lines = [
    "# This page's API server runs inside the browser tab, where curl cannot reach it. The same request",
    `# to KubeTab's Node server, started with: npm run serve -- ${secure ? '' : '--open '}--port ${port} --kubeconfig ${kubeconfig}`,
  ];
  const withToken = secure && sender.kind !== 'anonymous';
  if (withToken) lines.push(`TOKEN=$(kubectl --kubeconfig ${kubeconfig} config view --raw --minify -o jsonpath='{.users[0].user.token}')`);
  if (secure) lines.push(`kubectl --kubeconfig ${kubeconfig} config view --raw --minify -o jsonpath='{.clusters[0].cluster.certificate-authority-data}' | base64 -d > kubetab-ca.crt`);
  if (sender.kind === 'impersonated') lines.push(`# As ${sender.user}: the administrator impersonates that user (its token here belongs to this tab's cluster).`);
  const rebased = forNodeServer({ ...request, url: `${server}/${apiPath}${url.search}` }, sender);
  const parts = ['curl'];
  if (secure) parts.push('--cacert', 'kubetab-ca.crt');
  const curl = toCurl(rebased).replace(/^curl/, parts.join(' '));
  // $TOKEN in double quotes, so that the shell puts the token in; right after the URL.
  const auth = withToken ? ` -H "Authorization: Bearer $TOKEN"` : '';
  const quotedUrl = shellQuote(rebased.url);
  const at = curl.indexOf(quotedUrl) + quotedUrl.length;
  lines.push(curl.slice(0, at) + auth + curl.slice(at));
  return lines.join('\n');
}
