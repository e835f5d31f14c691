// A small HTTP client for the Node benchmarks: node:http over keep-alive
// sockets, each caller with its own agent, so a latency probe sent one at a
// time always finds its connection open and never queues behind the load's
// requests. Lighter than fetch (undici), whose own cost would blur a bare
// server's sub-millisecond answers.

import http from 'node:http';

export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

/** A client with its own keep-alive agent (`sockets`: most connections it opens at once). */
export function httpClient(sockets = 1) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  return {
    request(method: string, url: string, body?: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
      return new Promise((resolve, reject) => {
        const req = http.request(
          url,
          {
            method,
            agent,
            headers: {
              accept: 'application/json',
              ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
              ...headers,
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    close(): void {
      agent.destroy();
    },
  };
}

export type HttpClient = ReturnType<typeof httpClient>;

/** Sends a request and throws unless the status is the one expected. */
export async function expectStatus(client: HttpClient, status: number, method: string, url: string, body?: string): Promise<string> {
  const answer = await client.request(method, url, body);
  if (answer.status !== status) throw new Error(`${method} ${url}: HTTP ${answer.status} ${answer.body.slice(0, 500)}`);
  return answer.body;
}
