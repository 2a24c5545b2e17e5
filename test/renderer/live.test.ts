import { get, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_KEY } from '../../agent/api/http/streamSlots';
import { LiveFeed, type LiveEvent, type LiveState } from '../../renderer/src/lib/live';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/* The dashboard's live feed against a real agent: events arrive, and a restart is survived. */

let agent: TestAgent | undefined;
let feed: LiveFeed | undefined;
afterEach(async () => {
  feed?.stop();
  await agent?.stop();
});

describe('LiveFeed', () => {
  it('delivers the agent\'s events, then reconnects by itself after the agent restarts', async () => {
    const dataDir = tempDir();
    agent = await startTestAgent({ dataDir });
    const { port, token } = agent;
    feed = new LiveFeed({ base: agent.url, token });
    const events: LiveEvent[] = [];
    const states: LiveState[] = [];
    feed.subscribe((event) => events.push(event));
    feed.onState((state) => states.push(state));
    feed.start();
    await expect.poll(() => feed!.state).toBe('live');

    agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 5 });
    await expect.poll(() => events).toContainEqual({ type: 'monitor.changed', monitorId: 5 });

    await agent.close();
    await expect.poll(() => feed!.state).toBe('polling');

    // Same folder and port, so the same token works again.
    agent = await startTestAgent({ dataDir, port });
    await expect.poll(() => feed!.state, { timeout: 5000 }).toBe('live');
    expect(states).toEqual(['live', 'polling', 'live']);
    // Coming back announces a refresh, since changes may have been missed meanwhile.
    expect(events.filter((e) => e.type === 'poll').length).toBeGreaterThan(0);
    agent.events.emit({ type: 'notification.created', companyId: 1, notificationId: 'n1' });
    await expect.poll(() => events).toContainEqual({ type: 'notification.created', notificationId: 'n1' });
  });

  it('keeps one connection when restarted at once (as React does in development)', async () => {
    agent = await startTestAgent();
    const listeners = () => (agent!.events as unknown as { emitter: { listenerCount(name: string): number } }).emitter.listenerCount('event');
    const before = listeners(); // the agent's own (the monitor loop)
    feed = new LiveFeed({ base: agent.url, token: agent.token });
    feed.start();
    feed.stop();
    feed.start();
    await expect.poll(() => feed!.state).toBe('live');
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past the first reconnect delay
    expect(listeners()).toBe(before + 1);
  });

  it('says it is reconnecting while its key has every stream it may hold, and goes live by itself once one closes', async () => {
    agent = await startTestAgent();
    const { url, token } = agent;
    const open = () => new Promise<IncomingMessage>((resolve) => get(`${url}/api/events`, { agent: false, headers: { Authorization: `Bearer ${token}` } }, resolve));
    const others = await Promise.all(Array.from({ length: MAX_STREAMS_PER_KEY }, open));
    expect(others.map((response) => response.statusCode)).toEqual(others.map(() => 200));
    feed = new LiveFeed({ base: url, token });
    const states: LiveState[] = [];
    feed.onState((state) => states.push(state));
    feed.start();
    await expect.poll(() => feed!.state).toBe('polling'); // the dashboard's "Reconnecting…"
    others[0].destroy();
    await expect.poll(() => feed!.state, { timeout: 20_000 }).toBe('live');
    expect(states).toEqual(['polling', 'live']);
    for (const response of others) response.destroy();
  });
});
