// What a connection gets when the bytes after a request cannot be read as the
// next request. Node's default answers at once, which can put its 400 on the
// wire before the answer to the request still being served: a client that
// sent a DELETE with a body but neither Content-Length nor chunked framing
// (the default of Node's own https.request) then reads the 400 as its
// DELETE's answer, although the delete was done. Go's server, which clients
// of kube-apiserver know, serves each request in turn: the answer to the
// request in hand comes first, then "400 Bad Request" for the garbage and the
// connection closes. This does the same.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Go's reply to a request it cannot parse. */
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request';

const inFlight = new WeakMap<Socket, number>();

/** Counts each connection's responses not yet finished (call from the request listener). */
export function trackResponse(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    const left = (inFlight.get(socket) ?? 1) - 1;
    inFlight.set(socket, left);
    if (left === 0) socket.emit('kubetab:idle');
  };
  res.once('finish', finish);
  res.once('close', finish);
}

/** Answers unparsable requests as Go does, after the responses the connection still owes. */
export function answerClientErrorsInOrder(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const reply = () => {
      if (socket.writable) socket.end(BAD_REQUEST);
      else socket.destroy();
    };
    if ((inFlight.get(socket) ?? 0) > 0) socket.once('kubetab:idle', reply);
    else reply();
  });
}
