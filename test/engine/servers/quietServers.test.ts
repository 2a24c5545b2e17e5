import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Popup } from '../../../agent/engine/popups/notifier';
import { createOverdueFailer } from '../../../agent/engine/failOverdue';
import { stepAt } from '../../helpers/loopStep';
import { serverQuietNotice } from '../../../agent/domain/servers/quietNotices';
import { startTestAgent, type TestAgent } from '../../helpers/testAgent';

/* A server whose watcher missed two reports and a minute raises one notification, and one when it reports again. */

const popups: Popup[] = [];
let agent: TestAgent;
let now = Date.parse('2026-11-23T10:00:00Z');
let receiver: Server;
const received: Array<{ data: { status: string; server_identifier: string } }> = [];

beforeAll(async () => {
  // The words' moments are in the admin's zone: UTC here, whatever this machine's.
  agent = await startTestAgent({ clock: () => now, notifier: { show: (popup) => popups.push(popup) }, channels: { adminZone: 'UTC' } });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(JSON.parse(body));
      response.end('ok');
    });
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
});
afterAll(async () => {
  await agent.stop();
  receiver.close();
});

const heartbeat = (serverId: string, interval: number) =>
  agent.api('/api/servers/heartbeat', { method: 'POST', json: { server_id: serverId, interval_seconds: interval, jobs: 2 } });
const step = (at: number) => stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), at);
const serverNotes = async (query: string) =>
  ((await (await agent.api(`/api/notifications?per_page=100${query}`)).json()).data as Array<{ type: string; data: Record<string, unknown> }>).filter(
    (n) => n.data.type === 'server',
  );

describe('a quiet server', () => {
  it('raises one quiet notification after two missed reports and a minute, and one when it reports again, each exactly once', async () => {
    const made = await agent.api('/api/servers', { method: 'POST', json: { name: 'web 1', ip_address: '10.0.0.7', identifier: 'web-1' } });
    expect(made.status).toBe(201);
    const server = await made.json();
    const channel = await agent.api('/api/channels', { method: 'POST', json: { name: 'hook', kind: 'webhook', settings: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` } } });
    expect(channel.status).toBe(201);

    now = Date.parse('2026-11-23T10:00:00Z');
    expect((await heartbeat('web-1', 60)).status).toBe(200);
    expect(agent.store.serverReports.earliestQuietAt()).toBe(Date.parse('2026-11-23T10:03:00Z'));
    await step(Date.parse('2026-11-23T10:03:00Z'));
    expect(await serverNotes('&kinds=all')).toEqual([]);

    await step(Date.parse('2026-11-23T10:03:00.001Z'));
    await step(Date.parse('2026-11-23T10:10:00Z'));
    const quiet = await serverNotes('&kinds=all');
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).toMatchObject({
      type: 'App\\Notifications\\ServerQuietNotification',
      data: {
        type_id: server.id,
        status: 'quiet',
        title: 'web 1 went quiet',
        server_identifier: 'web-1',
        server_last_report_at: '2026-11-23T10:00:00.000000Z',
        server_report_interval_seconds: 60,
      },
    });
    expect(quiet[0].data.description).toBe(
      'The crontab watcher of web 1 (web-1) has not reported since 2026-11-23 10:00 UTC; it reports every minute. Is "cronbeat crontab watch" still running there, and can it reach Cronbeat?',
    );
    expect(await serverNotes('')).toEqual([]); // not among the spec's kinds
    expect(popups.filter((p) => p.title === 'web 1 went quiet')).toHaveLength(1);

    now = Date.parse('2026-11-23T10:12:00Z');
    expect((await heartbeat('web-1', 60)).status).toBe(200);
    expect((await heartbeat('web-1', 60)).status).toBe(200);
    await step(Date.parse('2026-11-23T10:13:00Z'));
    const all = await serverNotes('&kinds=all');
    expect(all.map((n) => n.data.status)).toEqual(['reporting', 'quiet']);
    expect(all[0]).toMatchObject({
      type: 'App\\Notifications\\ServerReportingAgainNotification',
      data: { title: 'web 1 reports again', description: 'The crontab watcher of web 1 (web-1) reported again at 2026-11-23 10:12 UTC, after 12 min without a report.' },
    });

    // Both went through the outbox to the channel, once each.
    const rows = agent.store.db.prepare("SELECT count(*) FROM deliveries d JOIN notifications n ON n.id = d.notification_id WHERE n.type LIKE '%Server%Notification' AND n.type NOT LIKE '%ServerAlert%'").pluck().get();
    expect(rows).toBe(2);
  });

  it('never raises anything for a server that never reported, nor for a deleted one', async () => {
    const made = await (await agent.api('/api/servers', { method: 'POST', json: { name: 'db', ip_address: '10.0.0.8', identifier: 'db-1' } })).json();
    now = Date.parse('2026-11-24T10:00:00Z');
    await heartbeat('db-1', 60);
    expect((await agent.api(`/api/servers/${made.id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    // Only db-1's own: a day later web-1 (the test above) goes quiet again, raised by this step or
    // by the agent's own loop at a moment of its own, so a count of every server's moved under load.
    const aboutDb = async () => (await serverNotes('&kinds=all')).filter((n) => n.data.server_identifier === 'db-1');
    expect(await aboutDb()).toEqual([]);
    await step(Date.parse('2026-11-25T10:00:00Z'));
    expect(await aboutDb()).toEqual([]);
    // Nor does it keep the loop awake: after a step, nothing it waits for is already past (else it wakes every millisecond).
    const failer = createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier });
    await stepAt(failer, Date.parse('2026-11-25T10:00:00Z'));
    expect(failer.nextStepAt() ?? Infinity).toBeGreaterThan(Date.parse('2026-11-25T10:00:00Z') + 1);
  });

  it('says how often the watcher reported in plain words, whatever its interval', () => {
    const server = { id: 1, name: 'web', identifier: 'web-1' };
    const every = (intervalSeconds: number | null) => serverQuietNotice(server, { lastReportAt: 0, intervalSeconds }, 0).data.description;
    expect(every(1)).toContain('it reports every second.');
    expect(every(90)).toContain('it reports every 90 seconds.');
    expect(every(60)).toContain('it reports every minute.');
    expect(every(null)).toContain('it reports every hour (it did not say how often).');
  });

  it('alerts at the very moment the servers list turns the quiet flag on: not a millisecond before, and at once after', async () => {
    await agent.api('/api/servers', { method: 'POST', json: { name: 'edge', ip_address: '10.0.0.9', identifier: 'edge-1' } });
    const edge = async () => ((await (await agent.api('/api/servers?q=edge-1')).json()) as Array<{ identifier: string; quiet: boolean }>).find((s) => s.identifier === 'edge-1')!;
    const quietNotes = async () => (await serverNotes('&kinds=all')).filter((n) => n.data.server_identifier === 'edge-1' && n.data.status === 'quiet');
    // An hourly watcher: two missed reports and a minute (2 h 1 min), where a rule of three intervals would wait 3 h.
    now = Date.parse('2026-11-27T10:00:00Z');
    expect((await heartbeat('edge-1', 3600)).status).toBe(200);
    const boundary = Date.parse('2026-11-27T12:01:00Z');
    now = boundary;
    await step(boundary);
    expect((await edge()).quiet).toBe(false);
    expect(await quietNotes()).toEqual([]);
    now = boundary + 1;
    await step(boundary + 1);
    expect((await edge()).quiet).toBe(true);
    expect(await quietNotes()).toHaveLength(1);

    // Back after 3 h 5 min of silence, counted from its last report, not from the quiet notification an hour after it.
    now = Date.parse('2026-11-27T13:05:00Z');
    expect((await heartbeat('edge-1', 3600)).status).toBe(200);
    const back = (await serverNotes('&kinds=all')).filter((n) => n.data.server_identifier === 'edge-1' && n.data.status === 'reporting');
    expect(back.map((n) => n.data.description)).toEqual([
      'The crontab watcher of edge (edge-1) reported again at 2026-11-27 13:05 UTC, after 3 h 5 min without a report.',
    ]);
  });
});
