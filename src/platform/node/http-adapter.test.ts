// The Node adapter must be invisible: what the core answers is what the HTTP
// client receives, streamed bodies arrive chunk by chunk (watch events reach
// kubectl as they happen), and a client that disconnects aborts the request.

import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startNodeServer, type RunningNodeServer } from './http-adapter';

let running: RunningNodeServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(handler: (request: Request) => Promise<Response>, streamed?: (request: Request) => boolean): Promise<string> {
  running = await startNodeServer({ handler, port: 0, ...(streamed ? { streamed } : {}) });
  return running.url;
}

/** The raw response head (status line and header lines) and the decoded body, through node:http's client. */
function rawGet(url: string, method = 'GET'): Promise<{ status: number; head: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const head: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) head.push(`${res.rawHeaders[i]!.toLowerCase()}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode!, head, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A body of `chunks` chunks of `size` bytes, produced only as the reader pulls. */
function pulledBody(chunks: number, size: number, produced: { bytes: number }): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === chunks) {
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(size).fill(sent % 251));
      sent++;
      produced.bytes += size;
    },
  });
}

describe('http adapter', () => {
  it('passes method, path, query, headers and body to the core and status, headers and body back', async () => {
    let seen: { method: string; url: string; accept: string | null; body: string } | undefined;
    const url = await serve(async (request) => {
      seen = { method: request.method, url: request.url, accept: request.headers.get('accept'), body: await request.text() };
      return new Response('{"kind":"ConfigMap"}', {
        status: 201,
        headers: { 'content-type': 'application/json', 'audit-id': 'abc' },
      });
    });
    const response = await fetch(`${url}/api/v1/namespaces/default/configmaps?fieldManager=x`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: '{"metadata":{"name":"a"}}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('audit-id')).toBe('abc');
    expect(await response.text()).toBe('{"kind":"ConfigMap"}');
    expect(seen).toEqual({
      method: 'POST',
      url: `${url}/api/v1/namespaces/default/configmaps?fieldManager=x`,
      accept: 'application/json',
      body: '{"metadata":{"name":"a"}}',
    });
  });

  it('streams a large request body to the core without buffering it first', async () => {
    let received = 0;
    const url = await serve(async (request) => {
      const reader = request.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
      }
      return new Response(String(received));
    });
    const size = 4 * 1024 * 1024;
    const response = await fetch(`${url}/api/v1/namespaces`, { method: 'PUT', body: new Uint8Array(size) });
    expect(await response.text()).toBe(String(size));
  });

  it('delivers each chunk of a streamed body as soon as the core produces it (watch)', async () => {
    let push: ((text: string) => void) | undefined;
    const url = await serve(async () => {
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (text) => controller.enqueue(encoder.encode(text));
        },
      });
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    });
    const response = await fetch(`${url}/api/v1/configmaps?watch=1`);
    // Headers arrive before any event: kubectl waits for them before printing anything.
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    push!('{"type":"ADDED"}\n');
    expect(decoder.decode((await reader.read()).value)).toBe('{"type":"ADDED"}\n');
    push!('{"type":"MODIFIED"}\n');
    expect(decoder.decode((await reader.read()).value)).toBe('{"type":"MODIFIED"}\n');
    await reader.cancel();
  });

  it('aborts the request signal and cancels the body when the client disconnects', async () => {
    let aborted: Promise<void> | undefined;
    let cancelled: (() => void) | undefined;
    const cancelledPromise = new Promise<void>((resolve) => (cancelled = resolve));
    const url = await serve(async (request) => {
      aborted = new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"type":"ADDED"}\n'));
        },
        cancel() {
          cancelled!();
        },
      });
      return new Response(body);
    });
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${url}/api/v1/pods?watch=true`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
      req.setTimeout(5000, () => reject(new Error('no data')));
    });
    await aborted;
    await cancelledPromise;
  });

  it('sends no body for HEAD', async () => {
    const url = await serve(async () => new Response('{"kind":"Pod"}', { headers: { 'content-type': 'application/json' } }));
    const response = await fetch(`${url}/api/v1/namespaces/default/pods/p`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('answers a host failure with a 500 Status', async () => {
    const url = await serve(async () => {
      throw new Error('boom');
    });
    const response = await fetch(`${url}/api`);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'InternalError',
      code: 500,
      message: 'Internal error occurred: boom',
    });
  });

  it("sends a body complete within 2 KiB with a Content-Length, a larger one chunked, as Go's net/http does", async () => {
    // Rule: kube-apiserver's net/http buffers 2,048 bytes; a response finished within them gets a Content-Length.
    const url = await serve(async (request) => {
      const size = Number(new URL(request.url).searchParams.get('size'));
      return new Response('x'.repeat(size), { headers: { 'content-type': 'application/json' } });
    });
    const small = await rawGet(`${url}/api?size=2048`);
    expect(small.head).toContain('content-length: 2048');
    expect(small.head.some((line) => line.startsWith('transfer-encoding'))).toBe(false);
    expect(small.body).toBe('x'.repeat(2048));
    const large = await rawGet(`${url}/api?size=2049`);
    expect(large.head).toContain('transfer-encoding: chunked');
    expect(large.head.some((line) => line.startsWith('content-length'))).toBe(false);
    expect(large.body).toBe('x'.repeat(2049));
    // Headers as the core set them, in Fetch's order, before node:http's own.
    expect(small.head.slice(0, 2)).toEqual(['content-type: application/json', 'content-length: 2048']);
  });

  it('sends a streamed response (a watch) chunked with its headers first, even when it ends at once', async () => {
    const url = await serve(
      async () => new Response('{"type":"ERROR"}\n', { headers: { 'content-type': 'application/json' } }),
      (request) => new URL(request.url).searchParams.get('watch') === '1',
    );
    const watch = await rawGet(`${url}/api/v1/pods?watch=1`);
    expect(watch.head).toContain('transfer-encoding: chunked');
    expect(watch.body).toBe('{"type":"ERROR"}\n');
    const get = await rawGet(`${url}/api/v1/pods`);
    expect(get.head).toContain('content-length: 17');
  });

  it('frames a response without a body as node:http does: Content-Length 0, none for HEAD and 304', async () => {
    const url = await serve(async (request) => new Response(null, { status: new URL(request.url).pathname === '/304' ? 304 : 200 }));
    expect((await rawGet(`${url}/api`)).head).toContain('content-length: 0');
    const head = await rawGet(`${url}/api`, 'HEAD');
    expect(head.head.some((line) => /^(content-length|transfer-encoding)/.test(line))).toBe(false);
    const notModified = await rawGet(`${url}/304`);
    expect(notModified.status).toBe(304);
    expect(notModified.head.some((line) => /^(content-length|transfer-encoding)/.test(line))).toBe(false);
  });

  it('keeps each Set-Cookie value apart', async () => {
    const url = await serve(async () => {
      const headers = new Headers();
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/');
      return new Response('ok', { headers });
    });
    expect((await rawGet(`${url}/`)).head.filter((line) => line.startsWith('set-cookie'))).toEqual(['set-cookie: a=1; Path=/', 'set-cookie: b=2; Path=/']);
  });

  it('delivers a large streamed body intact and stops pulling it while the client does not read', async () => {
    const produced = { bytes: 0 };
    const chunks = 512;
    const size = 64 * 1024;
    const url = await serve(async () => new Response(pulledBody(chunks, size, produced)));
    const received = await new Promise<{ bytes: number; producedWhilePaused: number; intact: boolean }>((resolve, reject) => {
      http
        .get(`${url}/api/v1/secrets`, (res) => {
          res.pause();
          setTimeout(() => {
            const producedWhilePaused = produced.bytes;
            let bytes = 0;
            let intact = true;
            res.on('data', (chunk: Buffer) => {
              for (let i = 0; i < chunk.length; i += 4096) if (chunk[i] !== Math.floor((bytes + i) / size) % 251) intact = false;
              bytes += chunk.length;
            });
            res.on('end', () => resolve({ bytes, producedWhilePaused, intact }));
            res.resume();
          }, 300);
        })
        .on('error', reject);
    });
    expect(received.bytes).toBe(chunks * size);
    expect(received.intact).toBe(true);
    // Backpressure: with the client not reading, the core's stream was not drained into memory (32 MiB in all).
    expect(received.producedWhilePaused).toBeLessThan(chunks * size / 2);
  });

  it('listens on 127.0.0.1 by default', async () => {
    const url = await serve(async () => new Response('ok'));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('bytes after a request that are not a request', () => {
  it('are answered with Go\'s 400 only after the answer to the request in hand (a DELETE body sent without framing)', async () => {
    const { connect } = await import('node:net');
    let release!: () => void;
    const handled = new Promise<void>((resolve) => (release = resolve));
    const url = await serve(async (request) => {
      // The answer takes a while: the garbage behind the request is parsed meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      return new Response(JSON.stringify({ kind: 'Status', status: 'Success', method: request.method }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('DELETE /api/v1/namespaces/default/configmaps/x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n\r\n{"kind":"DeleteOptions","apiVersion":"v1"}');
    await handled;
    await closed;
    const first = received.indexOf('HTTP/1.1 200');
    const bad = received.indexOf('HTTP/1.1 400 Bad Request');
    expect(first).toBe(0);
    expect(received).toContain('"method":"DELETE"');
    expect(bad).toBeGreaterThan(first);
    expect(received.endsWith('400 Bad Request')).toBe(true);
  });
});
