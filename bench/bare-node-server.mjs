// The Node floor: a bare node:http server that answers pre-built bodies, each
// with one write. Usage: node bench/bare-node-server.mjs GET_BODY_FILE LIST_BODY_FILE
//   GET /get   the get body        GET /list  the list body
// Prints its URL on the first line.

import { readFileSync } from 'node:fs';
import http from 'node:http';

const bodies = { '/get': readFileSync(process.argv[2]), '/list': readFileSync(process.argv[3]) };
const server = http.createServer((req, res) => {
  const body = bodies[req.url];
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.byteLength });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
