import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { NotificationFollower } from '../../../agent/client/follow/follower';
import type { FollowedNotification } from '../../../agent/client/follow/notificationCursor';
import { startTestAgent, type TestAgent } from '../../helpers/testAgent';
import { until } from '../../helpers/until';

/*
 * A laptop that slept: its connection to the agent is dead without a word (what the agent sent
 * meanwhile never arrives), and its monotonic clock stood still, so the stream's silence would
 * be noticed only 45 s after it wakes. A real agent behind a TCP relay that stops passing the
 * agent's bytes on the connections open at the "sleep"; the follower's wall clock jumps.
 */

let agent: TestAgent | null = null;
let follower: NotificationFollower | null = null;
let relay: ReturnType<typeof createServer> | null = null;
afterEach(async () => {
  follower?.stop();
  relay?.closeAllConnections();
  relay?.close();
  await agent?.stop();
  [agent, follower, relay] = [null, null, null];
});

describe('a follower on a computer that slept', () => {
  it('connects again as soon as it sees its wall clock jump, and shows what the agent raised meanwhile', async () => {
    agent = await startTestAgent();
    const monitor = (await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly backup', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } })).json()) as { token: string };
    const asleep = new Set<ServerResponse>();
    const open: ServerResponse[] = [];
    const { host } = new URL(agent.url);
    relay = createServer((request, response) => {
      open.push(response);
      const forwarded = httpRequest(`${agent!.url}${request.url}`, { method: request.method, headers: { ...request.headers, host } }, (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.on('data', (chunk: Buffer) => asleep.has(response) || response.write(chunk));
        answer.on('end', () => asleep.has(response) || response.end());
      });
      forwarded.on('error', () => response.destroy());
      request.pipe(forwarded);
    });
    await new Promise<void>((resolve) => relay!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(relay.address() as { port: number }).port}`;

    let offset = 0;
    const shown: FollowedNotification[] = [];
    const connections: boolean[] = [];
    follower = new NotificationFollower({
      baseUrl: url,
      token: agent.token,
      clock: () => Date.now() + offset,
      checkEveryMs: 50,
      onNotifications: (list) => shown.push(...list),
      onConnection: (connected) => connections.push(connected),
    });
    const running = follower.run();
    await until(() => connections.includes(true), 'the first connection', 10_000);

    for (const response of open) asleep.add(response); // the open stream is dead from here on
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`, { method: 'POST' })).status).toBe(200);
    offset = 8 * 3600_000; // the lid opens eight hours later
    await until(() => shown.length === 1, 'the failure raised while asleep', 5_000);
    expect(shown[0].data.title).toBe('nightly backup failed');
    expect(connections).toEqual([true, false, true]);
    follower.stop();
    await running;
  });
});
