// The Node floor: a bare node:http server that answers pre-built bodies, each
// with one write. Usage: node bench/bare-node-server.mjs GET_BODY_FILE LIST_BODY_FILE [CREATE_BODY_FILE]
//   GET /get   the get body        GET /list  the list body
//   POST /create (with a create body file) reads and parses the request's JSON
//                body, then answers 201 with the pre-built created object
// Prints its URL on the first line.

import { readFileSync } from 'node:fs';
import http from 'node:http';

const bodies = { '/get': readFileSync(process.argv[2]), '/list': readFileSync(process.argv[3]) };
const created = process.argv[4] ? readFileSync(process.argv[4]) : undefined;
const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/create' && created) {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': created.byteLength });
      res.end(created);
    });
    return;
  }
  const body = bodies[req.url];
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.byteLength });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
