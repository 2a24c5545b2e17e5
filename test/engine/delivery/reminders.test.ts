import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../../agent/engine/failOverdue';
import { stepAt } from '../../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../../helpers/testAgent';
import { until } from '../../helpers/until';

/* A channel can repeat a still-failed monitor's alert every N hours, through the outbox, until recovery or pause. */

const HOUR = 3_600_000;
let agent: TestAgent;
let now = Date.parse('2026-11-23T10:00:30Z');
let receiver: Server;
const received: Array<{ event: string; path: string; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ event: String(request.headers['x-cronbeat-event']), path: request.url ?? '', body: JSON.parse(body) });
      response.end('ok');
    });
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
});
afterAll(async () => {
  await agent.stop();
  receiver.close();
});

const hookUrl = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;
const step = (at: number) => {
  now = at;
  return stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), at);
};
const reminders = (monitorId: number) =>
  agent.store.db
    .prepare(
      `SELECT c.name FROM deliveries d JOIN notifications n ON n.id = d.notification_id JOIN channels c ON c.id = d.channel_id
       WHERE n.type = 'App\\Notifications\\MonitorStillFailingNotification' AND json_extract(n.data, '$.type_id') = ? ORDER BY d.id`,
    )
    .pluck()
    .all(monitorId);

/** Until the monitor's failure was sent to every channel (a reminder waits for the alert it tells again). */
const failureSent = (monitorId: number) =>
  until(
    () =>
      agent.store.db
        .prepare(
          `SELECT count(*) FROM deliveries d JOIN notifications n ON n.id = d.notification_id
           WHERE n.type = 'App\\Notifications\\MonitorFailedNotification' AND json_extract(n.data, '$.type_id') = ? AND d.status != 'sent'`,
        )
        .pluck()
        .get(monitorId) === 0,
    'the failure sent',
    10_000,
  );

describe('reminders', () => {
  let repeating: { id: number; remind_every_hours: number | null };

  it('is a channel setting, off by default, whole hours from 1 to 168', async () => {
    const plain = await (await agent.api('/api/channels', { method: 'POST', json: { name: 'once', kind: 'webhook', settings: { url: hookUrl('/once') } } })).json();
    expect(plain.remind_every_hours).toBeNull();
    for (const bad of [0, 1.5, 169, '2']) {
      const response = await agent.api('/api/channels', { method: 'POST', json: { name: 'x', kind: 'webhook', settings: { url: hookUrl('/x') }, remind_every_hours: bad } });
      expect(response.status, String(bad)).toBe(422);
      expect(Object.keys((await response.json()).errors)).toEqual(['remind_every_hours']);
    }
    repeating = await (await agent.api('/api/channels', { method: 'POST', json: { name: 'pager', kind: 'webhook', settings: { url: hookUrl('/pager') }, remind_every_hours: 3 } })).json();
    expect(repeating.remind_every_hours).toBe(3);
    const patched = await (await agent.api(`/api/channels/${repeating.id}`, { method: 'PATCH', json: { remind_every_hours: 2 } })).json();
    expect(patched.remind_every_hours).toBe(2);
    expect((await (await agent.api(`/api/channels/${repeating.id}`, { method: 'PATCH', json: { name: 'pager' } })).json()).remind_every_hours).toBe(2);
  });

  it('repeats the alert every N hours on that channel only, once each, until the monitor is paused', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    const failedAt = Date.parse('2026-11-23T11:00:10Z');
    now = failedAt;
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/3`)).status).toBe(200);
    await until(() => received.filter((r) => r.event === 'monitor.failed').length === 2, 'the failure at both channels', 10_000);
    // Heard is not yet recorded sent: a reminder due while its failure still waits is skipped.
    await failureSent(monitor.id);

    await step(failedAt + 2 * HOUR - 1);
    expect(reminders(monitor.id)).toEqual([]);
    await step(failedAt + 2 * HOUR);
    await step(failedAt + 2 * HOUR + 1000);
    expect(reminders(monitor.id)).toEqual(['pager']);
    await until(() => received.some((r) => r.event === 'monitor.still_failing'), 'the reminder at the pager', 10_000);
    const reminder = received.find((r) => r.event === 'monitor.still_failing')!;
    expect(reminder.path).toBe('/pager');
    const listed = (await (await agent.api('/api/notifications?kinds=all&per_page=5')).json()).data[0];
    expect(listed).toMatchObject({ type: 'App\\Notifications\\MonitorStillFailingNotification', data: { type_id: monitor.id, status: 'still_failing', title: 'nightly-backup is still failing' } });
    expect((await (await agent.api('/api/notifications?per_page=50')).json()).data.map((n: { type: string }) => n.type)).not.toContain('App\\Notifications\\MonitorStillFailingNotification');

    await step(failedAt + 4 * HOUR);
    expect(reminders(monitor.id)).toEqual(['pager', 'pager']);

    now = failedAt + 5 * HOUR;
    expect((await agent.api(`/api/monitors/${monitor.id}/pause`, { method: 'POST', json: {} })).status).toBe(200);
    await step(failedAt + 6 * HOUR);
    await step(failedAt + 9 * HOUR);
    expect(reminders(monitor.id)).toEqual(['pager', 'pager']);
    expect(agent.store.reminders.earliestDueAt()).toBeNull();
  });

  it('stops at recovery', async () => {
    now = Date.parse('2026-11-24T10:00:30Z');
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'sync', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    const failedAt = Date.parse('2026-11-24T11:00:10Z');
    now = failedAt;
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
    await failureSent(monitor.id);
    await step(failedAt + 2 * HOUR);
    expect(reminders(monitor.id)).toEqual(['pager']);
    now = failedAt + 3 * HOUR;
    await fetch(`${agent.url}/api/pulse/${monitor.token}`);
    await step(failedAt + 4 * HOUR);
    await step(failedAt + 10 * HOUR);
    expect(reminders(monitor.id)).toEqual(['pager']);
  });

  it('are held during a maintenance window covering the monitor, and come again after it', async () => {
    now = Date.parse('2026-11-25T10:00:30Z');
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'etl', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    const failedAt = Date.parse('2026-11-25T11:00:10Z');
    now = failedAt;
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
    await failureSent(monitor.id);
    const window = { starts_at: '2026-11-25T12:00:00Z', ends_at: '2026-11-25T14:00:00Z', monitor_ids: [monitor.id] };
    expect((await agent.api('/api/maintenance-windows', { method: 'POST', json: window })).status).toBe(201);
    await step(failedAt + 2 * HOUR); // 13:00:10, in the window
    expect(reminders(monitor.id)).toEqual([]);
    await step(failedAt + 4 * HOUR); // 15:00:10, after it
    expect(reminders(monitor.id)).toEqual(['pager']);
  });

  it('never tell a failure that ended: one failing again since, not alerted yet, gets no reminder of the old one', async () => {
    now = Date.parse('2026-11-26T10:00:30Z');
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'mirror', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    const failedAt = Date.parse('2026-11-26T11:00:10Z');
    now = failedAt;
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
    await failureSent(monitor.id);
    // Recovered, then failing again under "alert after 3": failed, its new failure not told yet.
    now = failedAt + HOUR;
    await fetch(`${agent.url}/api/pulse/${monitor.token}`);
    expect((await agent.api(`/api/monitors/${monitor.id}/alert-after`, { method: 'PUT', json: { alert_after: 3 } })).status).toBe(200);
    now = failedAt + HOUR + 60_000;
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).status).toBe('failed');
    // The first failure's reminder falls due: it would say "still failing since 11:00", which ended at 12:00.
    await step(failedAt + 2 * HOUR);
    await step(failedAt + 5 * HOUR);
    expect(reminders(monitor.id)).toEqual([]);
  });

  it('stop on a channel the monitor no longer alerts: its channels changed, the failure is not told there again', async () => {
    now = Date.parse('2026-11-28T10:00:30Z');
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'archive', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    const failedAt = Date.parse('2026-11-28T11:00:10Z');
    now = failedAt;
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
    await failureSent(monitor.id);
    await step(failedAt + 2 * HOUR);
    expect(reminders(monitor.id)).toEqual(['pager']);
    // Sent (alone or in a digest with other monitors' alerts of that moment): a reminder waits for the last to be.
    const unsent = `SELECT count(*) FROM deliveries d JOIN notifications n ON n.id = d.notification_id
      WHERE n.type = 'App\\Notifications\\MonitorStillFailingNotification' AND json_extract(n.data, '$.type_id') = ? AND d.status != 'sent'`;
    now += 30_000;
    await expect.poll(async () => (await agent.deliveries.runDue(), agent.store.db.prepare(unsent).pluck().get(monitor.id))).toBe(0);
    // The admin routes it elsewhere: the pager hears no more of it (its recovery aside).
    const other = (await (await agent.api('/api/channels', { method: 'POST', json: { name: 'other', kind: 'webhook', settings: { url: hookUrl('/other') } } })).json()) as { id: number };
    expect((await agent.api(`/api/monitors/${monitor.id}`, { method: 'PATCH', json: { channel_ids: [other.id] } })).status).toBe(200);
    await step(failedAt + 4 * HOUR);
    await step(failedAt + 6 * HOUR);
    expect(reminders(monitor.id)).toEqual(['pager']);
    expect((await agent.api(`/api/channels/${other.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('of a failure that alerted at its N-th in a row tell it failing since the first of them, as the dashboard does', async () => {
    now = Date.parse('2026-11-29T10:00:30Z');
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'rsync', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    expect((await agent.api(`/api/monitors/${monitor.id}/alert-after`, { method: 'PUT', json: { alert_after: 2 } })).status).toBe(200);
    const firstAt = Date.parse('2026-11-29T11:00:10Z');
    now = firstAt;
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
    now = firstAt + HOUR;
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
    await failureSent(monitor.id);
    await step(firstAt + 3 * HOUR);
    expect(reminders(monitor.id)).toEqual(['pager']);
    const told = agent.store.db
      .prepare(`SELECT alert FROM notifications WHERE type = 'App\\Notifications\\MonitorStillFailingNotification' AND json_extract(data, '$.type_id') = ?`)
      .pluck()
      .get(monitor.id) as string;
    expect(JSON.parse(told).failing_since).toBe('2026-11-29T11:00:10.000000Z');
    const shown = (await (await agent.api(`/api/monitors/${monitor.id}`)).json()) as { status: string };
    expect(shown.status).toBe('failed');
  });

  it('come at the new interval once it changes, counted from the last one told', async () => {
    now = Date.parse('2026-11-30T10:00:30Z');
    const daily = (await (await agent.api('/api/channels', { method: 'POST', json: { name: 'daily', kind: 'webhook', settings: { url: hookUrl('/daily') }, remind_every_hours: 24 } })).json()) as { id: number };
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'ledger', timezone: 'UTC', schedule: '0 * * * *', duration: 5, channel_ids: [daily.id] } })).json();
    const failedAt = Date.parse('2026-11-30T11:00:10Z');
    now = failedAt;
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
    await failureSent(monitor.id);
    // Ten minutes on, once a day is too rare: every hour, from the failure.
    now = failedAt + 10 * 60_000;
    expect((await agent.api(`/api/channels/${daily.id}`, { method: 'PATCH', json: { remind_every_hours: 1 } })).status).toBe(200);
    await step(failedAt + HOUR - 1000);
    expect(reminders(monitor.id)).toEqual([]);
    await step(failedAt + HOUR);
    expect(reminders(monitor.id)).toEqual(['daily']);
    expect((await agent.api(`/api/channels/${daily.id}`, { method: 'DELETE' })).status).toBe(204);
  });

});
