// The core must not be able to tell the LightRequest from the undici Request
// the Node host used to build (decision 0290): same method, normalised URL,
// headers (lower-cased, repeated ones joined, sorted), body bytes; its signal
// aborts when the client goes away; the certificate header stays stripped
// (decision 0180).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LightRequest } from './light-request';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Serves one request: `inspect` sees the LightRequest and the undici Request built from the same message. */
async function serveOnce<T>(inspect: (light: LightRequest, req: http.IncomingMessage, res: http.ServerResponse) => Promise<T>): Promise<{ port: number; seen: Promise<T> }> {
  let resolveSeen!: (value: T) => void;
  let rejectSeen!: (error: unknown) => void;
  const seen = new Promise<T>((resolve, reject) => {
    resolveSeen = resolve;
    rejectSeen = reject;
  });
  server = http.createServer((req, res) => {
    try {
      const light = LightRequest.fromIncoming(req, res);
      inspect(light, req, res).then(resolveSeen, rejectSeen);
    } catch (error) {
      rejectSeen(error);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

/** Sends raw bytes (what a client can put on the wire, repeated headers included). */
function send(port: number, text: string): net.Socket {
  const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
  socket.on('error', () => {});
  return socket;
}

/** What undici's Request makes of the same message: the host's previous behaviour. */
function undiciRequest(req: http.IncomingMessage, url: string): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (/^(connection|keep-alive|transfer-encoding|upgrade|x-kubetab-client-certificate)$/i.test(name)) continue;
    headers.append(name, req.rawHeaders[i + 1]!);
  }
  return new Request(url, { method: req.method, headers });
}

describe('LightRequest', () => {
  it('has the method, normalised URL and headers undici gives (repeated joined, names lower-cased, sorted)', async () => {
    const { port, seen } = await serveOnce(async (light, req, res) => {
      const reference = undiciRequest(req, `http://${req.headers.host}${req.url}`);
      res.end();
      return {
        light: { method: light.method, url: light.url, entries: [...light.headers], accept: light.headers.get('ACCEPT') },
        reference: { method: reference.method, url: reference.url, entries: [...reference.headers], accept: reference.headers.get('ACCEPT') },
      };
    });
    send(
      port,
      'GET /api/v1/./namespaces/../namespaces?watch=1&labelSelector=a%3Db HTTP/1.1\r\n' +
        'Host: EXAMPLE.com:80\r\nAccept: application/yaml\r\nX-Remote-Group: a\r\naccept: application/json  \r\n' +
        'X-Remote-Group: b\r\nConnection: keep-alive\r\nUser-Agent: kubectl/v1.32.0\r\n\r\n',
    );
    const { light, reference } = await seen;
    expect(light).toEqual(reference);
    expect(light.url).toBe('http://example.com/api/v1/namespaces?watch=1&labelSelector=a%3Db');
    expect(light.accept).toBe('application/yaml, application/json');
    expect(light.entries.map(([name]) => name)).toEqual(['accept', 'host', 'user-agent', 'x-remote-group']);
  });

  it('drops the reserved client-certificate header and connection-level headers (decision 0180)', async () => {
    const { port, seen } = await serveOnce(async (light, _req, res) => {
      res.end();
      return { names: [...light.headers.keys()], certificate: light.headers.get('x-kubetab-client-certificate') };
    });
    send(port, 'GET /api HTTP/1.1\r\nHost: x\r\nX-Kubetab-Client-Certificate: MIIB\r\nKeep-Alive: timeout=5\r\nConnection: close\r\n\r\n');
    expect(await seen).toEqual({ names: ['host'], certificate: null });
  });

  it('gives the request body as a stream, as text, and to a clone (the audit copy) in full', async () => {
    const { port, seen } = await serveOnce(async (light, _req, res) => {
      const copy = light.clone();
      const [original, copied] = await Promise.all([light.text(), copy.text()]);
      res.end();
      return { original, copied, used: light.bodyUsed, methodOfCopy: copy.method, urlOfCopy: copy.url };
    });
    const body = '{"metadata":{"name":"é"}}';
    send(port, `PUT /api/v1/namespaces/a HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    expect(await seen).toEqual({ original: body, copied: body, used: true, methodOfCopy: 'PUT', urlOfCopy: 'http://x/api/v1/namespaces/a' });
  });

  it('has no body for GET and HEAD', async () => {
    const { port, seen } = await serveOnce(async (light, _req, res) => {
      res.end();
      return { body: light.body, text: await light.text(), used: light.bodyUsed };
    });
    send(port, 'GET /api HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await seen).toEqual({ body: null, text: '', used: false });
  });

  it('aborts its signal when the client disconnects before the response is sent, not after it is', async () => {
    let finished: LightRequest | undefined;
    const { port, seen } = await serveOnce(async (light, _req, res) => {
      if (light.url.endsWith('/done')) {
        res.end('ok');
        finished = light;
        return false;
      }
      // A watch: the response never ends; the client goes away.
      res.flushHeaders();
      await new Promise<void>((resolve) => light.signal.addEventListener('abort', () => resolve(), { once: true }));
      return light.signal.aborted;
    });
    const socket = send(port, 'GET /api/v1/pods?watch=1 HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.once('data', () => socket.destroy());
    expect(await seen).toBe(true);

    const other = send(port, 'GET /done HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    other.resume();
    await new Promise((resolve) => other.on('close', resolve));
    // Read after the response has finished and the connection closed: nothing was cut short.
    expect(finished!.signal.aborted).toBe(false);
  });

  it('refuses TRACE as undici did, so the host still answers it with its 500', async () => {
    const { port, seen } = await serveOnce(async () => undefined);
    send(port, 'TRACE /api HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect(seen).rejects.toThrow("'TRACE' HTTP method is unsupported.");
  });
});
