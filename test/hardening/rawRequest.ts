import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

/** An HTTP request with any headers (Host included, which fetch does not allow) and an optional body. */
export function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; headersOnly?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (response) => {
      if (init.headersOnly) {
        resolve({ status: response.statusCode!, headers: response.headers, text: '', json: () => null });
        return req.destroy();
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode!, headers: response.headers, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/**
 * A JSON API request with a bearer key, on a connection of its own: an agent whose clock runs
 * faster (libfaketime) closes an idle pooled connection just as a test would reuse it.
 */
export function apiRequest(url: string, key: string, method = 'GET', body?: unknown): Promise<RawResponse> {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  return rawRequest(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** Sends `text` as is over a new TCP connection and resolves with everything the server sent until it closed. */
export function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received)).on('error', reject);
  });
}
