import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BUFFERED_BYTES } from '../../agent/api/routes/events';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A client of /api/events that stops reading during a storm of changes is dropped once it falls
 * MAX_BUFFERED_BYTES behind, so the agent's memory stays bounded; a client that reads keeps
 * every event. Real agent, real sockets; the storm is the agent's own event bus at full speed.
 */

let agent: TestAgent;
const logged: string[] = [];
beforeAll(async () => {
  agent = await startTestAgent({ log: (line) => logged.push(line) });
});
afterAll(() => agent.stop());

interface EventClient {
  socket: Socket;
  received: () => number;
  closed: Promise<void>;
}

function openEvents(reading: boolean): Promise<EventClient> {
  const { port } = new URL(agent.url);
  return new Promise((resolve) => {
    let bytes = 0;
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${agent.token}\r\n\r\n`);
      socket.once('data', (first: Buffer) => {
        bytes += first.length;
        if (!reading) socket.pause(); // reads nothing more: what the agent sends piles up
        resolve({ socket, received: () => bytes, closed });
      });
    });
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('error', () => {}); // a dropped client may see a reset
  });
}

const EVENT_BYTES = `data: ${JSON.stringify({ type: 'monitor.changed', monitorId: 1 })}\n\n`.length;

describe('slow readers of /api/events', () => {
  it('drops a client that stops reading during a storm, while a reading client gets every event', async () => {
    const stalled = await openEvents(false);
    const reader = await openEvents(true);
    const before = reader.received();
    // Well past the agent's bound plus what the kernel buffers on both ends of a loopback socket.
    const count = Math.ceil((MAX_BUFFERED_BYTES + 16 * 1024 * 1024) / EVENT_BYTES);
    for (let i = 0; i < count; i++) {
      agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 1 });
      if (i % 2000 === 0) await new Promise((done) => setImmediate(done));
    }
    await expect.poll(() => reader.received() - before, { timeout: 20_000 }).toBeGreaterThanOrEqual(count * EVENT_BYTES);

    stalled.socket.resume(); // reads what the kernel held, then sees the end
    await Promise.race([stalled.closed, new Promise((_, fail) => setTimeout(() => fail(new Error('the stalled client was never dropped')), 10_000))]);
    expect(stalled.received()).toBeLessThan(count * EVENT_BYTES);
    expect(reader.socket.destroyed).toBe(false);
    expect(logged.filter((line) => line.includes('/api/events'))).toHaveLength(1); // said once, not per event
    reader.socket.destroy();
  });
});
