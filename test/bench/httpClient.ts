import { Agent, request } from 'node:http';
import { msSince } from './stats';

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

export interface Response {
  status: number;
  body: Buffer;
  /** From sending the request to the last byte of the body. */
  ms: number;
}

/** A GET over one kept-alive connection, timed to the last byte; the body is not parsed. */
export function get(url: string, token?: string): Promise<Response> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    request(url, { agent: keepAlive, headers }, (response) => {
      const chunks: Buffer[] = [];
      response
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), ms: msSince(start) }))
        .on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Times `runs` GETs of `url` after two untimed ones; fails on anything but 200. */
export async function timeGets(url: string, runs: number, token?: string): Promise<{ durations: number[]; bytes: number }> {
  let bytes = 0;
  const durations: number[] = [];
  for (let i = -2; i < runs; i++) {
    const response = await get(url, token);
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${response.body.toString().slice(0, 200)}`);
    bytes = response.body.length;
    if (i >= 0) durations.push(response.ms);
  }
  return { durations, bytes };
}

export function closeConnections(): void {
  keepAlive.destroy();
}
