import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * The baseline: a bare node:http server doing no work. `/bytes/N` answers N bytes of JSON-ish
 * text (the floor for sending a body that size); anything else answers "OK".
 */
const bodies = new Map<number, Buffer>();
function bodyOf(size: number): Buffer {
  let body = bodies.get(size);
  if (!body) bodies.set(size, (body = Buffer.alloc(size, 'x')));
  return body;
}

const server = createServer((request, response) => {
  const sized = /^\/bytes\/(\d+)$/.exec(request.url ?? '');
  if (sized) {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(bodyOf(Number(sized[1])));
    return;
  }
  response.writeHead(200, { 'Content-Type': 'text/plain' }).end('OK');
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
