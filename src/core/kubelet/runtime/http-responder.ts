// What a container's server answers to an HTTP request (an httpGet probe,
// a port-forwarded curl): nginx and httpd serve their document roots from
// the container's files (so a ConfigMap mounted over nginx's html shows),
// and log the request as they do; any other listening server answers 200
// with a small page naming the pod.

import type { ShellFileSystem } from '../shell/types';
import { clfTime } from './programs/log-time';

export interface HttpAnswer {
  readonly status: number;
  readonly reason: string;
  readonly contentType: string;
  readonly body: string;
  readonly server: string;
}

const REASONS: Record<number, string> = { 200: 'OK', 301: 'Moved Permanently', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error' };

function nginxErrorPage(status: number): string {
  const title = `${status} ${REASONS[status] ?? ''}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx/1.27.3</center>\r\n</body>\r\n</html>\r\n`;
}

function fromRoot(fs: ShellFileSystem, root: string, path: string): string | undefined {
  const clean = path.split('?')[0]!.replace(/\/+$/, '');
  const candidates = clean === '' ? [`${root}/index.html`, `${root}/index.htm`] : [`${root}${clean}`, `${root}${clean}/index.html`];
  for (const c of candidates) {
    const text = fs.read(c);
    if (text !== undefined) return text;
  }
  return undefined;
}

export interface ServerIdentity {
  readonly repository: string;
  readonly podName: string;
  readonly fs: ShellFileSystem;
}

/** The answer of the container's server to `GET path`. */
export function answerHttp(server: ServerIdentity, method: string, path: string): HttpAnswer {
  switch (server.repository) {
    case 'docker.io/library/nginx': {
      const body = fromRoot(server.fs, '/usr/share/nginx/html', path);
      if (body === undefined) return { status: 404, reason: 'Not Found', contentType: 'text/html', body: nginxErrorPage(404), server: 'nginx/1.27.3' };
      return { status: 200, reason: 'OK', contentType: 'text/html', body: method === 'HEAD' ? '' : body, server: 'nginx/1.27.3' };
    }
    case 'docker.io/library/httpd': {
      const body = fromRoot(server.fs, '/usr/local/apache2/htdocs', path);
      if (body === undefined) return { status: 404, reason: 'Not Found', contentType: 'text/html; charset=iso-8859-1', body: '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n', server: 'Apache/2.4.62 (Unix)' };
      return { status: 200, reason: 'OK', contentType: 'text/html', body, server: 'Apache/2.4.62 (Unix)' };
    }
    default:
      return { status: 200, reason: 'OK', contentType: 'text/html; charset=utf-8', body: `<!DOCTYPE html>\n<html><head><title>${server.podName}</title></head><body><h1>${server.podName}</h1><p>Served by pod ${server.podName}.</p></body></html>\n`, server: 'kubetab' };
  }
}

/** The access-log line the server writes for a request (nginx and httpd log to stdout), or undefined. */
export function accessLogLine(repository: string, clientIP: string, method: string, path: string, answer: HttpAnswer, userAgent: string, atMs: number): string | undefined {
  const size = new TextEncoder().encode(answer.body).length;
  if (repository === 'docker.io/library/nginx') return `${clientIP} - - [${clfTime(atMs)}] "${method} ${path} HTTP/1.1" ${answer.status} ${size} "-" "${userAgent}" "-"\n`;
  if (repository === 'docker.io/library/httpd') return `${clientIP} - - [${clfTime(atMs)}] "${method} ${path} HTTP/1.1" ${answer.status} ${size}\n`;
  return undefined;
}

/** An HTTP/1.1 response message. */
export function httpResponseText(answer: HttpAnswer, dateMs: number): string {
  const body = new TextEncoder().encode(answer.body);
  return [
    `HTTP/1.1 ${answer.status} ${answer.reason}`,
    `Server: ${answer.server}`,
    `Date: ${new Date(dateMs).toUTCString()}`,
    `Content-Type: ${answer.contentType}`,
    `Content-Length: ${body.length}`,
    'Connection: close',
    '',
    answer.body,
  ].join('\r\n');
}
