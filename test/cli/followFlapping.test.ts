import { createServer, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli';

/*
 * `cronbeat notifications --follow` against agents that connect and let go at once, or that say
 * "ready" over and over: a crash-looping agent, a proxy that cuts every stream, a hostile one. The
 * follower neither floods the terminal with a line per attempt nor the agent with requests; it
 * waits longer between attempts, and still prints what happens.
 */

const NOTIFICATION = {
  id: '0b3c7a2e-8f7d-4a55-9b8e-3d2f1c0a9e11',
  type: 'App\\Notifications\\MonitorFailedNotification',
  created_at: '2026-11-25T14:02:11.000000Z',
  data: { type: 'monitor', type_id: 1, title: 'nightly backup failed', description: 'exit 1' },
};

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  cleanups = [];
});

interface FakeAgent {
  url: string;
  /** When each /api/events request came (ms, this process's clock). */
  streams: number[];
  /** How many times the notifications were read. */
  lists: () => number;
}

/** An agent that answers /api/events with `stream` and the list with what `listed()` gives. */
async function fakeAgent(stream: (response: ServerResponse, fake: FakeAgent) => void, listed: () => unknown[] = () => []): Promise<FakeAgent> {
  let lists = 0;
  const fake: FakeAgent = { url: '', streams: [], lists: () => lists };
  const server = createServer((request, response) => {
    if (request.url!.startsWith('/api/events')) {
      fake.streams.push(Date.now());
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      stream(response, fake);
      return;
    }
    lists++;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: listed() }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => server.close());
  fake.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return fake;
}

function follow(url: string) {
  const child = spawnCli(['notifications', '--follow', '--url', url, '--token', 'cb_whatever']);
  const out = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk));
  const exited = new Promise((done) => child.on('close', done));
  cleanups.push(() => child.kill('SIGKILL'));
  return { out, stop: () => (child.kill('SIGTERM'), exited) };
}

describe('cronbeat notifications --follow against a flapping agent', () => {
  it('an agent that says "ready" thousands of times in one stream: one "following" line, and the list read once per reason', async () => {
    let told = false;
    const agent = await fakeAgent(
      (response) => {
        response.write('data: {"type":"ready"}\n\n'.repeat(2000));
        // Once the follower has looked, a notification comes: its line shows the readies are behind it.
        const tell = setInterval(() => {
          if (agent.lists() === 0) return;
          clearInterval(tell);
          told = true;
          response.write('data: {"type":"notification.created"}\n\n');
        }, 20);
        response.on('close', () => clearInterval(tell));
      },
      () => (told ? [NOTIFICATION] : []),
    );
    const follower = follow(agent.url);
    await expect.poll(() => follower.out.stdout, { timeout: 20_000 }).toContain('nightly backup failed');
    await follower.stop();
    expect(follower.out.stderr.split('\n').filter(Boolean)).toEqual([`cronbeat: following ${agent.url}`]);
    expect(agent.lists()).toBeLessThanOrEqual(3);
  }, 30_000);

  it('an agent that closes each stream right after "ready": waits longer each time, and says it once', async () => {
    const agent = await fakeAgent((response) => response.end('data: {"type":"ready"}\n\n'));
    const follower = follow(agent.url);
    await expect.poll(() => agent.streams.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
    await follower.stop();
    const gaps = agent.streams.slice(1).map((at, i) => at - agent.streams[i]);
    // 0.5 s, 1 s, 2 s…: the waits grow instead of starting over at every "ready".
    expect(gaps[2], `gaps ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(1_900);
    expect(follower.out.stderr.split('\n').filter(Boolean)).toEqual([
      `cronbeat: following ${agent.url}`,
      `cronbeat: lost ${agent.url} (the agent closed the stream); reconnecting`,
      `cronbeat: following ${agent.url}`,
    ]);
  }, 30_000);
});
