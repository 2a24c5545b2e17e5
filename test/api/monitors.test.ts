import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, TIMESTAMP, UUID_V4, type TestAgent } from '../helpers/testAgent';

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const valid = { name: 'Nightly backup', timezone: 'Europe/Paris', schedule: '0 2 * * *', duration: 30 };

function createMonitor(body: Record<string, unknown>) {
  return agent.api('/api/monitors', { method: 'POST', json: body });
}

const SPEC_FIELDS = [
  'id', 'name', 'company_id', 'project_id', 'token', 'timezone', 'schedule', 'last_run_at',
  'duration', 'is_alerted', 'alert_reason', 'deleted_at', 'created_at', 'updated_at',
];

describe('monitors', () => {
  it('creates a monitor with every field of the spec, typed as the spec says', async () => {
    const response = await createMonitor({ ...valid, project_id: 7, unknown: true });
    expect(response.status).toBe(201);
    const monitor = await response.json();
    for (const field of SPEC_FIELDS) expect(monitor, field).toHaveProperty(field);
    expect(monitor).toMatchObject({
      name: 'Nightly backup', company_id: 1, project_id: 7, timezone: 'Europe/Paris', schedule: '0 2 * * *',
      duration: 30, is_alerted: 0, alert_reason: '', deleted_at: null,
    });
    expect(Number.isInteger(monitor.id)).toBe(true);
    expect(monitor.token).toMatch(UUID_V4);
    for (const field of ['last_run_at', 'created_at', 'updated_at']) expect(monitor[field]).toMatch(TIMESTAMP);
    expect(monitor.last_run_at).toBe(monitor.created_at);
  });

  it('makes project_id null when it is left out, and a fresh token each time', async () => {
    const a = await (await createMonitor(valid)).json();
    const b = await (await createMonitor({ ...valid, project_id: null })).json();
    expect(a.project_id).toBeNull();
    expect(b.project_id).toBeNull();
    expect(a.token).not.toBe(b.token);
  });

  it('lists, shows and soft-deletes', async () => {
    const created = await (await createMonitor(valid)).json();
    expect((await (await agent.api('/api/monitors')).json()).map((m: { id: number }) => m.id)).toContain(created.id);
    const shown = await (await agent.api(`/api/monitors/${created.id}`)).json();
    expect(shown.id).toBe(created.id);
    expect(shown.token).toBe(created.token);
    expect((await agent.api(`/api/monitors/${created.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await agent.api(`/api/monitors/${created.id}`)).status).toBe(404);
    expect((await (await agent.api('/api/monitors')).json()).map((m: { id: number }) => m.id)).not.toContain(created.id);
  });

  it.each([
    ['name', { name: '' }],
    ['name', { name: 'n'.repeat(256) }],
    ['timezone', { timezone: 'Mars/Olympus' }],
    ['timezone', { timezone: '+02:00' }],
    ['timezone', { timezone: undefined }],
    ['schedule', { schedule: '' }],
    ['schedule', { schedule: '* * * * * *' }],
    ['schedule', { schedule: 'every day' }],
    ['schedule', { schedule: '61 * * * *' }],
    ['schedule', { schedule: '@reboot' }],
    ['schedule', { schedule: '@nightly' }],
    // Jenkins' H: cron-parser would pick a random minute at every parse, moving the due time.
    ['schedule', { schedule: 'H * * * *' }],
    ['schedule', { schedule: '0 H * * *' }],
    ['schedule', { schedule: '0 0 30 2 *' }],
    // systemd calendar events and periods: the same field, refused in words.
    ['schedule', { schedule: '*-*-* 25:00' }],
    ['schedule', { schedule: 'Fri..Mon 09:00' }],
    ['schedule', { schedule: 'Mon 09:00\n*-13-01' }],
    ['schedule', { schedule: '@every 0m' }],
    ['schedule', { schedule: '@every soon' }],
    ['duration', { duration: 0 }],
    ['duration', { duration: 525601 }],
    ['duration', { duration: 1.5 }],
    ['duration', { duration: '5' }],
    ['duration', { duration: undefined }],
    ['project_id', { project_id: 0 }],
    ['project_id', { project_id: -3 }],
    ['project_id', { project_id: 'seven' }],
  ])('answers 422 naming %s for %j and writes nothing', async (field, change) => {
    const count = () => agent.store.db.prepare('SELECT count(*) FROM monitors').pluck().get();
    const before = count();
    const response = await createMonitor({ ...valid, ...change });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(Object.keys(body.errors)).toEqual([field]);
    expect(typeof body.message).toBe('string');
    expect(count()).toBe(before);
  });

  it('stores a cron macro as its five fields', async () => {
    const macros = { '@hourly': '0 * * * *', '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@weekly': '0 0 * * 0', '@monthly': '0 0 1 * *', '@yearly': '0 0 1 1 *', '@ANNUALLY': '0 0 1 1 *' };
    for (const [macro, fields] of Object.entries(macros)) {
      const response = await createMonitor({ ...valid, schedule: macro });
      expect(response.status, macro).toBe(201);
      expect((await response.json()).schedule, macro).toBe(fields);
    }
  });

  it('explains a bad field in words, naming the schedule field', async () => {
    const body = await (await createMonitor({ ...valid, schedule: '0 25 * * *' })).json();
    expect(body.errors.schedule).toEqual(['The schedule field is not valid: The hour field is 25, but hours go from 0 to 23.']);
    expect(JSON.stringify(body)).not.toMatch(/Constraint error/);
    const hashed = await (await createMonitor({ ...valid, schedule: 'H * * * *' })).json();
    expect(hashed.errors.schedule[0]).toMatch(/a five-field cron has no H/);
  });

  it('takes a systemd calendar event (several, one a line) or a period in the same field, each with its next due time', async () => {
    const now = agent.clock();
    const calendar = await createMonitor({ ...valid, schedule: 'Mon..Fri 02:30\n  Sat 04:00 UTC ' });
    expect(calendar.status).toBe(201);
    const made = await calendar.json();
    expect(made.schedule).toBe('Mon..Fri 02:30\nSat 04:00 UTC');
    const detail = await (await agent.api(`/api/monitors/${made.id}`)).json();
    // The first run after now, plus the 30 minutes' duration.
    const { nextRunAfter } = await import('../../agent/domain/schedules');
    expect(Date.parse(detail.next_due_at)).toBe(nextRunAfter('Mon..Fri 02:30\nSat 04:00 UTC', 'Europe/Paris', now)! + 30 * 60_000);

    const before = agent.clock();
    const period = await (await createMonitor({ ...valid, schedule: '@every 90m' })).json();
    const after = agent.clock();
    const periodDue = Date.parse((await (await agent.api(`/api/monitors/${period.id}`)).json()).next_due_at);
    // One period after creation, plus the duration.
    expect(periodDue).toBeGreaterThanOrEqual(before + (90 + 30) * 60_000);
    expect(periodDue).toBeLessThanOrEqual(after + (90 + 30) * 60_000);
  });

  it('explains a bad calendar event in words, naming the schedule field and its line', async () => {
    const body = await (await createMonitor({ ...valid, schedule: 'Mon 09:00\n*-*-* 25:00' })).json();
    expect(body.errors.schedule).toEqual(['The schedule field is not valid: Line 2 ("*-*-* 25:00"): The hour is 25, but hours go from 0 to 23.']);
  });

  it('stores the current zone name: letter case corrected, an old name as its current one', async () => {
    for (const [given, stored] of [['Asia/Kolkata', 'Asia/Kolkata'], ['europe/paris', 'Europe/Paris'], ['US/Eastern', 'America/New_York'], ['Asia/Calcutta', 'Asia/Kolkata'], ['utc', 'UTC']]) {
      const monitor = await (await createMonitor({ ...valid, timezone: given })).json();
      expect(monitor.timezone, given).toBe(stored);
    }
  });

  it('accepts the edges: duration 1 and 525600, any zone Intl knows', async () => {
    for (const [timezone, duration] of [['UTC', 1], ['Asia/Kolkata', 525600], ['America/New_York', 60]] as const) {
      const response = await createMonitor({ ...valid, timezone, duration });
      expect(response.status, timezone).toBe(201);
    }
  });
});
