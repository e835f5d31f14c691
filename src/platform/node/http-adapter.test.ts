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

async function serve(handler: (request: Request) => Promise<Response>): Promise<string> {
  running = await startNodeServer({ handler, port: 0 });
  return running.url;
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

  it('listens on 127.0.0.1 by default', async () => {
    const url = await serve(async () => new Response('ok'));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
