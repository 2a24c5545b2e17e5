import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_COMPANY, MAX_STREAMS_PER_KEY, STREAM_RETRY_AFTER_S } from '../../agent/api/http/streamSlots';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * One key, even a read-only one, cannot hold the agent's connections with live streams: past
 * MAX_STREAMS_PER_KEY (and MAX_STREAMS_PER_COMPANY for all of a company's keys) a stream is
 * refused with 429 and Retry-After, a closed stream gives its slot back, and pulses and other
 * keys' streams go on. Unbounded, a key opened streams until the agent had no file descriptor
 * left to accept a pulse with. Real agent, real sockets.
 */

let agent: TestAgent;
let pulseUrl: string;
beforeAll(async () => {
  agent = await startTestAgent();
  const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'backup', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
  pulseUrl = `${agent.url}/api/pulse/${monitor.token}`;
});
afterAll(() => agent.stop());

interface Stream {
  response: IncomingMessage;
  received: () => string;
  ended: Promise<void>;
}

/** GET /api/events on a connection of its own: the open stream once its "ready" came, or the refusal and its body. */
function openStream(token: string): Promise<Stream | { status: number; retryAfter?: string; body: { message: string } }> {
  return new Promise((resolve, reject) => {
    get(`${agent.url}/api/events`, { agent: false, headers: { Authorization: `Bearer ${token}` } }, (response) => {
      response.setEncoding('utf8');
      let text = '';
      const ended = new Promise<void>((done) => response.on('end', done).on('close', done));
      response.on('data', (chunk: string) => {
        text += chunk;
        if (response.statusCode === 200 && text.includes('"ready"')) resolve({ response, received: () => text, ended });
      });
      if (response.statusCode !== 200) {
        response.on('end', () => resolve({ status: response.statusCode!, retryAfter: response.headers['retry-after'], body: JSON.parse(text) }));
      }
    }).on('error', reject);
  });
}

async function openStreams(token: string, count: number): Promise<Stream[]> {
  const streams = await Promise.all(Array.from({ length: count }, () => openStream(token)));
  for (const stream of streams) expect('response' in stream ? 200 : stream.status).toBe(200);
  return streams as Stream[];
}

const close = async (streams: Stream[]) => {
  for (const stream of streams) stream.response.destroy();
  await Promise.all(streams.map((stream) => stream.ended));
};

const readOnlyKey = (companyId = 1) => agent.store.apiTokens.create({ companyId, name: 'wall display', scope: 'read-only', now: Date.now() });

const pulseStatus = async () => (await fetch(pulseUrl, { method: 'POST' })).status;

describe('live streams one key may hold', () => {
  it(`refuses a read-only key's stream past ${MAX_STREAMS_PER_KEY} with 429, frees a slot when a stream closes, and never slows pulses or another key`, async () => {
    const { token } = readOnlyKey();
    const streams = await openStreams(token, MAX_STREAMS_PER_KEY);
    expect(await pulseStatus()).toBe(200);

    const refused = await openStream(token);
    expect(refused).toMatchObject({ status: 429, retryAfter: String(STREAM_RETRY_AFTER_S) });
    expect((refused as { body: { message: string } }).body.message).toMatch(new RegExp(`^This key has ${MAX_STREAMS_PER_KEY} live event streams open`));
    expect(await pulseStatus()).toBe(200);

    // Another key's stream is its own: opened now, and every open stream still hears events.
    const [other] = await openStreams(readOnlyKey().token, 1);
    agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 4242 });
    await expect.poll(() => [other, streams[0], streams[MAX_STREAMS_PER_KEY - 1]].every((s) => s.received().includes('"monitorId":4242'))).toBe(true);

    // A client gone gives its slot back: the next stream of the key is accepted.
    await close(streams.splice(0, 1));
    await expect.poll(async () => {
      const next = await openStream(token);
      if (!('response' in next)) return next.status;
      streams.push(next);
      return 200;
    }).toBe(200);
    expect(await openStream(token)).toMatchObject({ status: 429 });
    expect(await pulseStatus()).toBe(200);
    await close([...streams, other]);
  });

  it(`refuses a company's streams past ${MAX_STREAMS_PER_COMPANY} across its keys, gives a revoked key's slots back, and leaves other companies alone`, async () => {
    const keys = Array.from({ length: MAX_STREAMS_PER_COMPANY / MAX_STREAMS_PER_KEY }, () => readOnlyKey());
    const streams = (await Promise.all(keys.map((key) => openStreams(key.token, MAX_STREAMS_PER_KEY)))).flat();

    const refused = await openStream(readOnlyKey().token);
    expect(refused).toMatchObject({ status: 429, retryAfter: String(STREAM_RETRY_AFTER_S) });
    expect((refused as { body: { message: string } }).body.message).toMatch(/^This company's keys have 256 live event streams open/);
    const [elsewhere] = await openStreams(agent.tokenFor(2), 1);
    expect(await pulseStatus()).toBe(200);

    // Revoking a key ends its streams, and their slots go back to the company.
    expect((await agent.api(`/api/keys/${keys[0].id}`, { method: 'DELETE' })).status).toBe(204);
    await Promise.all(streams.slice(0, MAX_STREAMS_PER_KEY).map((stream) => stream.ended));
    const newcomer = readOnlyKey().token;
    await expect.poll(async () => {
      const next = await openStream(newcomer);
      if (!('response' in next)) return next.status;
      streams.push(next);
      return 200;
    }).toBe(200);
    await close([...streams, elsewhere]);
  });
});
