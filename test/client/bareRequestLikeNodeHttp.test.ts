import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { requestOnce, type HttpOutcome } from '../../agent/client/connection/http';

/*
 * A pulse over the bare socket (agent/client/connection/bareRequest.ts) ends as it would through
 * node:http alone: the same outcome for every answer, whole or a byte at a time. One it read where
 * node:http refuses counted a pulse as delivered that node:http would have kept in the spool.
 * Real sockets on 127.0.0.1, each answering exactly the bytes given once the request is in.
 */

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
});

async function answering(answer: Buffer, byteByByte: boolean): Promise<string> {
  const server = createServer((socket: Socket) => {
    let request = '';
    socket.on('error', () => undefined);
    socket.on('data', async (chunk) => {
      const before = request;
      request += chunk.toString('latin1');
      const headEnd = request.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(request)?.[1] ?? 0);
      const complete = (text: string) => headEnd >= 0 && text.length >= headEnd + 4 + length;
      if (!complete(request) || complete(before)) return;
      if (!byteByByte) return void socket.end(answer);
      for (const byte of answer) {
        socket.write(Buffer.from([byte]));
        await new Promise((next) => setImmediate(next));
      }
      socket.end();
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/pulse/abc`;
}

/** An outcome without the port of the server that gave it (each asking has its own). */
const shown = (outcome: HttpOutcome) => JSON.stringify(outcome).replace(/127\.0\.0\.1:\d+/g, '127.0.0.1');

const ANSWERS: Record<string, string> = {
  'plain': 'HTTP/1.1 202 Accepted\r\nContent-Length: 2\r\n\r\nok',
  'HTTP/1.0': 'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok',
  'chunked with extensions': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;a=b;c\r\nok\r\n0;z\r\n\r\n',
  'a NUL in a header': 'HTTP/1.1 200 OK\r\nX-Note: a\x00b\r\nContent-Length: 2\r\n\r\nok',
  'a control character in a header': 'HTTP/1.1 200 OK\r\nContent-Type: text/html\x01\r\nContent-Length: 2\r\n\r\nok',
  'DEL in a header': 'HTTP/1.1 200 OK\r\nX-Note: a\x7fb\r\nContent-Length: 2\r\n\r\nok',
  'obs-text in a header': 'HTTP/1.1 200 OK\r\nX-Note: caf\xe9\r\nContent-Length: 2\r\n\r\nok',
  'an escape in a redirect': 'HTTP/1.1 302 Found\r\nLocation: https://x.test/\x1b[2J\r\nContent-Length: 0\r\n\r\n',
  'a control character in a reason': 'HTTP/1.1 500 \x1b[31mred\r\nContent-Length: 0\r\n\r\n',
  'a control character in a chunk extension': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;a=\x01\r\nok\r\n0\r\n\r\n',
  'a space in a chunk extension': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2; a=b\r\nok\r\n0\r\n\r\n',
  'trailers': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-Sum: 1\r\n\r\n',
  'a negative chunk size': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-2\r\nok\r\n0\r\n\r\n',
  'Content-Length twice': 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok',
  'a body shorter than said': 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nok',
  'a body longer than said': 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nok',
  'a 1xx first': 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
  'a 204': 'HTTP/1.1 204 No Content\r\n\r\n',
  'a 204 with a body': 'HTTP/1.1 204 No Content\r\nContent-Length: 2\r\n\r\nok',
  'a 304 saying a length': 'HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n',
  'a __proto__ header': 'HTTP/1.1 200 OK\r\n__proto__: x\r\nconstructor: y\r\nContent-Length: 2\r\n\r\nok',
  'no HTTP': 'SSH-2.0-OpenSSH_9.6\r\n\r\n',
};

describe('a pulse over the bare socket', () => {
  it('ends as through node:http alone, for every answer, whole or a byte at a time', async () => {
    for (const [name, answer] of Object.entries(ANSWERS)) {
      for (const byteByByte of [false, true]) {
        const ask = async (repeatable: boolean) =>
          shown(await requestOnce({ method: 'POST', url: await answering(Buffer.from(answer, 'latin1'), byteByByte), headers: { 'Idempotency-Key': 'k' }, body: 'out', repeatable }));
        expect(await ask(true), `${name}${byteByByte ? ', a byte at a time' : ''}`).toBe(await ask(false));
      }
    }
  });

  it('ends as through node:http alone for a head over 16 KB in one piece', async () => {
    const answer = Buffer.from(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\nok`);
    const ask = async (repeatable: boolean) => shown(await requestOnce({ method: 'POST', url: await answering(answer, false), body: 'out', repeatable }));
    expect(await ask(true)).toBe(await ask(false));
  });
});
