import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/*
 * Requests Node refuses before the app sees them (malformed HTTP, headers too large, too slow)
 * get the same JSON error shape as every other refusal, instead of Node's bare status line.
 */

function refusal(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'The request headers (URL included) are too large.'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'The request took too long to arrive.'];
  return [400, 'The request is not valid HTTP.'];
}

export function answerClientErrorsWithJson(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way cannot take another (Node checks the same before its own answer).
    const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || started) return void socket.destroy();
    const [status, message] = refusal(error.code);
    const body = JSON.stringify({ message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
