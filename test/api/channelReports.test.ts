import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A channel's report settings (checked like every setting: a 422 naming the field, nothing
 * changed) and GET /api/channels/{id}/report-preview: what the channel would be sent for the last
 * whole period, read only, so a read-only key may ask.
 */

let agent: TestAgent;
const NOW = Date.parse('2026-11-27T10:00:00Z');
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => NOW, channels: { adminZone: 'Europe/Berlin' } });
});
afterAll(() => agent.stop());

const create = (body: unknown) => agent.api('/api/channels', { method: 'POST', json: body });
const patch = (id: number, body: unknown) => agent.api(`/api/channels/${id}`, { method: 'PATCH', json: body });

async function errors(response: Response): Promise<Record<string, string[]>> {
  expect(response.status).toBe(422);
  return (await response.json()).errors;
}

describe('report settings', () => {
  it('are off unless asked, checked by one rule for every kind, and removed by null', async () => {
    const channel = await (await create({ name: 'ops', kind: 'ntfy', settings: { topic: 'ops' } })).json();
    expect(channel.settings).toEqual({ topic: 'ops', access_token: null });
    const edited = await patch(channel.id, { settings: { report: 'weekly', report_time: '8:00', report_timezone: 'europe/paris' } });
    expect(edited.status).toBe(200);
    expect((await edited.json()).settings).toMatchObject({ report: 'weekly', report_time: '08:00', report_timezone: 'Europe/Paris' });

    for (const [settings, field, words] of [
      [{ report: 'hourly' }, 'settings.report', 'The report field must be one of: off, daily, weekly, monthly.'],
      [{ report_time: '25:00' }, 'settings.report_time', 'The report time field must be a time such as 08:00.'],
      [{ report_time: 8 }, 'settings.report_time', 'The report time field must be a time such as 08:00.'],
      [{ report_timezone: 'Mars/Olympus' }, 'settings.report_timezone', 'The report timezone field must be a valid time zone'],
    ] as const) {
      const refused = await errors(await patch(channel.id, { settings }));
      expect(refused[field]![0]).toContain(words);
    }
    const slack = await errors(await create({ name: 's', kind: 'slack', settings: { webhook_url: 'https://hooks.slack.com/services/T/B/X', report: 'yearly' } }));
    expect(Object.keys(slack)).toEqual(['settings.report']);
    expect((await (await agent.api(`/api/channels/${channel.id}`)).json()).settings).toMatchObject({ report: 'weekly', report_time: '08:00' });

    const removed = await patch(channel.id, { settings: { report: null, report_time: null, report_timezone: null } });
    expect((await removed.json()).settings).toEqual({ topic: 'ops', access_token: null });
  });
});

describe('GET /api/channels/{id}/report-preview', () => {
  it('answers the report for the last whole period, as the channel would be sent it', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
    const channel = await (await create({ name: 'ops', kind: 'slack', settings: { webhook_url: 'https://hooks.slack.com/services/T/B/X', report: 'daily' } })).json();
    // Made weeks ago (the agent's clock stands still): it never ran since.
    agent.store.db.prepare('UPDATE monitors SET created_at = ? WHERE id = ?').run(Date.parse('2026-11-01T00:00:00Z'), monitor.id);
    const response = await agent.api(`/api/channels/${channel.id}/report-preview`);
    expect(response.status).toBe(200);
    const preview = await response.json();
    // 08:00 in the agent's zone (Berlin, UTC+1 in November): yesterday's 07:00 UTC to today's.
    expect(preview).toMatchObject({
      frequency: 'daily',
      time: '08:00',
      timezone: 'Europe/Berlin',
      from: '2026-11-26T07:00:00.000000Z',
      to: '2026-11-27T07:00:00.000000Z',
      title: 'Daily report: 1 monitor, none failing now',
    });
    expect(preview.text).toContain('Thu 26 Nov 08:00 – Fri 27 Nov 08:00 Europe/Berlin');
    expect(preview.text).toContain('Never ran in this period:\nnightly-backup\n');
    expect(preview.text).toContain('nightly-backup: 0 runs, 0 failed, 0 missed, 100.00% up');
    expect(preview.message.blocks[0].text.text).toContain('Daily report');
    // The secret webhook URL is no part of what is shown.
    expect(JSON.stringify(preview)).not.toContain('services/T/B/X');

    const monthly = await (await agent.api(`/api/channels/${channel.id}/report-preview?frequency=monthly`)).json();
    expect(monthly).toMatchObject({ frequency: 'monthly', from: '2026-10-01T06:00:00.000000Z', to: '2026-11-01T07:00:00.000000Z' });
  });

  it('an email channel previews its subject, text and HTML', async () => {
    const channel = await (await create({ name: 'mail', kind: 'email', settings: { host: 'smtp.example.com', from: 'cb@example.com', to: 'ops@example.com', report: 'monthly', report_timezone: 'UTC' } })).json();
    const preview = await (await agent.api(`/api/channels/${channel.id}/report-preview`)).json();
    expect(preview.message.subject).toMatch(/^REPORT \| Monthly report: /);
    expect(preview.message.html).toContain('<h3');
    expect(preview.from).toBe('2026-10-01T08:00:00.000000Z');
  });

  it('404 for a channel that is not there, 422 naming a wrong frequency, and a read-only key may read it', async () => {
    expect((await agent.api('/api/channels/999999/report-preview')).status).toBe(404);
    expect((await agent.api('/api/channels/abc/report-preview')).status).toBe(404);
    const channel = await (await create({ name: 'n', kind: 'ntfy', settings: { topic: 'x' } })).json();
    const wrong = await errors(await agent.api(`/api/channels/${channel.id}/report-preview?frequency=hourly`));
    expect(wrong).toEqual({ frequency: ['The frequency field must be one of: daily, weekly, monthly.'] });
    const readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'ro', scope: 'read-only', now: NOW }).token;
    const asReadOnly = await agent.api(`/api/channels/${channel.id}/report-preview`, { token: readOnly });
    expect(asReadOnly.status).toBe(200);
    // Off: a daily report is previewed.
    expect((await asReadOnly.json()).frequency).toBe('daily');
    const ping = agent.store.apiTokens.create({ companyId: 1, name: 'p', scope: 'ping', now: NOW }).token;
    expect((await agent.api(`/api/channels/${channel.id}/report-preview`, { token: ping })).status).toBe(403);
  });
});
