import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

/**
 * Opens the stream with node:http (whose destroy() really closes the socket, unlike an aborted
 * fetch) and returns a reader of its `data:` payloads.
 */
async function openStream(token: string) {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get(`${agent.url}/api/events`, { headers: { Authorization: `Bearer ${token}` } }, resolve).on('error', reject);
  });
  response.setEncoding('utf8');
  const chunks = response[Symbol.asyncIterator]();
  let buffer = '';
  async function next(): Promise<unknown> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (data) return JSON.parse(data.slice(6));
        continue;
      }
      const { value, done } = await chunks.next();
      if (done) throw new Error('stream ended');
      buffer += value as string;
    }
  }
  return { response, next, close: () => response.destroy() };
}

describe('GET /api/events', () => {
  it('needs a token', async () => {
    const response = await fetch(`${agent.url}/api/events`);
    expect(response.status).toBe(401);
  });

  it('streams the token company\'s changes as they happen, and nothing of another company', async () => {
    const stream = await openStream(agent.token);
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers['cache-control']).toContain('no-cache');
    expect(await stream.next()).toEqual({ type: 'ready' });

    agent.events.emit({ type: 'monitor.changed', companyId: 2, monitorId: 99 });
    agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 7 });
    expect(await stream.next()).toEqual({ type: 'monitor.changed', monitorId: 7 });

    // A real change through the API reaches the stream too.
    const created = await agent.api('/api/servers', { method: 'POST', json: { name: 'a', ip_address: '10.0.0.1', identifier: 'events-a' } });
    const server = await created.json();
    expect(await stream.next()).toEqual({ type: 'server.changed', serverId: server.id });
    stream.close();
  });

  it('ends its streams at once when the agent stops, so stopping does not wait for open dashboards', async () => {
    const own = await startTestAgent();
    const response = await new Promise<IncomingMessage>((resolve) => {
      get(`${own.url}/api/events`, { headers: { Authorization: `Bearer ${own.token}` } }, resolve);
    });
    const ended = new Promise<'ended' | 'cut'>((resolve) => {
      response.on('end', () => resolve(response.complete ? 'ended' : 'cut'));
      response.on('aborted', () => resolve('cut'));
      response.on('error', () => resolve('cut'));
      response.resume();
    });
    await own.stop();
    // Ended by the agent, as a whole response: not cut by stopping's fallback, which cuts the
    // connections still open after 5 s (timing stop itself misread a busy machine).
    expect(await ended).toBe('ended');
  });

  it('lets go of its subscription when the client disconnects', async () => {
    const stream = await openStream(agent.token);
    await stream.next();
    const listeners = () => (agent.events as unknown as { emitter: { listenerCount(name: string): number } }).emitter.listenerCount('event');
    const before = listeners();
    stream.close();
    await expect.poll(listeners).toBe(before - 1);
  });
});
