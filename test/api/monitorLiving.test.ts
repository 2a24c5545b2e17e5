import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { startTestAgent, TIMESTAMP, type TestAgent } from '../helpers/testAgent';

/* Edit, pause and snooze, the "new" status and list filters, over real HTTP. */

let agent: TestAgent;
let now = Date.parse('2026-11-23T10:00:30Z');
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
});
afterAll(() => agent.stop());

const hourly = { name: 'Hourly sync', timezone: 'UTC', schedule: '0 * * * *', duration: 5 };
type Monitor = Record<string, unknown> & { id: number; token: string; pulse_url: string };

async function create(body: Record<string, unknown> = hourly): Promise<Monitor> {
  const response = await agent.api('/api/monitors', { method: 'POST', json: body });
  expect(response.status).toBe(201);
  return response.json();
}
const show = async (id: number): Promise<Monitor> => (await agent.api(`/api/monitors/${id}`)).json();
const patch = (id: number, json: unknown, token?: string | null) =>
  agent.api(`/api/monitors/${id}`, { method: 'PATCH', json, token });
const pause = (id: number, json: unknown = {}, token?: string | null) =>
  agent.api(`/api/monitors/${id}/pause`, { method: 'POST', json, token });
const resume = (id: number, token?: string | null) => agent.api(`/api/monitors/${id}/resume`, { method: 'POST', token });
/** The monitor loop's step at `at`, by a failer of its own (the agent's loop runs on its own clock). */
const step = (at: number) => stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), at);
const pulse = (token: string) => fetch(`${agent.url}/api/pulse/${token}`);
const row = (id: number) => agent.store.db.prepare('SELECT * FROM monitors WHERE id = ?').get(id);

describe('PATCH /api/monitors/{id}', () => {
  it('edits name and project without a new token or pulse URL', async () => {
    const monitor = await create();
    const response = await patch(monitor.id, { name: 'Renamed', project_id: 4 });
    expect(response.status).toBe(200);
    const edited = await response.json();
    expect(edited).toMatchObject({ id: monitor.id, name: 'Renamed', project_id: 4, schedule: '0 * * * *', token: monitor.token, pulse_url: monitor.pulse_url });
    expect(edited.next_due_at).toBe(monitor.next_due_at);
    expect((await patch(monitor.id, { project_id: null }).then((r) => r.json())).project_id).toBeNull();
  });

  it('re-plans a new schedule from the moment of the edit, never failing for a run the old or new schedule expected before it', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create();
    expect(monitor.next_due_at).toBe('2026-11-23T11:05:00.000000Z');
    now = Date.parse('2026-11-23T11:03:00Z');
    // The new schedule's last run (11:00, deadline 11:01) is past: no instant failure.
    const edited = await (await patch(monitor.id, { schedule: '30 * * * *', duration: 1 })).json();
    expect(edited).toMatchObject({ token: monitor.token, pulse_url: monitor.pulse_url, status: 'new', next_due_at: '2026-11-23T11:31:00.000000Z' });
    await step(Date.parse('2026-11-23T11:06:00Z')); // the old schedule's deadline
    await step(Date.parse('2026-11-23T11:30:59Z'));
    expect((await show(monitor.id)).is_alerted).toBe(0);
    await step(Date.parse('2026-11-23T11:31:01Z'));
    expect((await show(monitor.id)).status).toBe('failed');
  });

  it('keeps a failed monitor failed until a success pulse', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create({ ...hourly, duration: 1 });
    await step(Date.parse('2026-11-23T11:02:00Z'));
    now = Date.parse('2026-11-23T11:10:00Z');
    const edited = await (await patch(monitor.id, { schedule: '*/15 * * * *' })).json();
    expect(edited).toMatchObject({ status: 'failed', is_alerted: 1, next_due_at: null });
    expect((await pulse(monitor.token)).status).toBe(200);
    expect(await show(monitor.id)).toMatchObject({ status: 'monitoring', is_alerted: 0, next_due_at: '2026-11-23T11:16:00.000000Z' });
  });

  it.each([
    ['name', { name: '' }],
    ['name', { name: 'n'.repeat(256) }],
    ['timezone', { timezone: 'Mars/Olympus' }],
    ['timezone', { timezone: null }],
    ['schedule', { schedule: '* * * * * *' }],
    ['duration', { duration: 0 }],
    ['duration', { duration: '5' }],
    ['project_id', { project_id: -1 }],
    ['body', {}],
    // The misspelt field is named (and the body names none of the fields).
    ['nmae,body', { nmae: 'typo' }],
  ])('answers 422 naming %s for %j and changes nothing', async (field, body) => {
    const monitor = await create();
    const before = row(monitor.id);
    const response = await patch(monitor.id, body);
    expect(response.status).toBe(422);
    expect(Object.keys((await response.json()).errors)).toEqual(field.split(','));
    expect(row(monitor.id)).toEqual(before);
  });

  it('answers 401 without a token and 404 for another company, changing nothing', async () => {
    const monitor = await create();
    const before = row(monitor.id);
    expect((await patch(monitor.id, { name: 'x' }, null)).status).toBe(401);
    expect((await patch(monitor.id, { name: 'x' }, agent.tokenFor(2))).status).toBe(404);
    expect((await patch(999_999, { name: 'x' })).status).toBe(404);
    expect(row(monitor.id)).toEqual(before);
  });
});

describe('pause, snooze and resume', () => {
  it('pauses: status paused, nothing due, pulses recorded but raise nothing, never fails', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create({ ...hourly, duration: 1 });
    const response = await pause(monitor.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'paused', next_due_at: null, paused_until: null, paused_at: '2026-11-23T10:00:30.000000Z' });
    await step(Date.parse('2026-11-24T10:00:00Z'));
    now = Date.parse('2026-11-23T12:00:10Z');
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`)).status).toBe(200);
    const paused = await show(monitor.id);
    expect(paused).toMatchObject({ status: 'paused', is_alerted: 0, last_pulse_at: '2026-11-23T12:00:10.000000Z' });
    const history = await (await agent.api(`/api/monitors/${monitor.id}/pulses`)).json();
    expect(history.data.map((p: { kind: string }) => p.kind)).toEqual(['fail', 'pause']);
  });

  it('resumes: planned from the moment of the resume', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create();
    await pause(monitor.id);
    now = Date.parse('2026-11-23T13:20:00Z');
    const resumed = await (await resume(monitor.id)).json();
    expect(resumed).toMatchObject({ status: 'new', paused_at: null, next_due_at: '2026-11-23T14:05:00.000000Z', token: monitor.token });
    // Resuming a monitor that is not paused changes nothing.
    expect(await (await resume(monitor.id)).json()).toMatchObject({ next_due_at: '2026-11-23T14:05:00.000000Z' });
  });

  it('snoozes until a time: the stored due time makes the loop wake then, and it is planned from that moment', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create();
    const snoozed = await (await pause(monitor.id, { until: '2026-11-23T12:30:00Z' })).json();
    expect(snoozed).toMatchObject({ status: 'paused', next_due_at: null, paused_until: '2026-11-23T12:30:00.000000Z' });
    expect(agent.store.monitors.earliestDueAt()).toBeLessThanOrEqual(Date.parse('2026-11-23T12:30:00Z'));
    await step(Date.parse('2026-11-23T12:29:59Z'));
    expect((await show(monitor.id)).status).toBe('paused');
    await step(Date.parse('2026-11-23T12:30:00.001Z'));
    expect(await show(monitor.id)).toMatchObject({ status: 'new', paused_until: null, next_due_at: '2026-11-23T13:05:00.000000Z' });
  });

  it('keeps a snooze\'s end as data on its run-history line, beside the same words as before', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create();
    await pause(monitor.id, { until: '2026-11-23T12:30:00Z' });
    now = Date.parse('2026-11-23T10:05:00Z');
    await resume(monitor.id);
    now = Date.parse('2026-11-23T10:06:00Z');
    await pause(monitor.id);
    const history = await (await agent.api(`/api/monitors/${monitor.id}/pulses`)).json();
    expect(history.data.map((p: { kind: string; body: string; paused_until: string | null }) => [p.kind, p.body, p.paused_until])).toEqual([
      ['pause', 'Paused until resumed', null],
      ['resume', 'Resumed: waiting for the next run', null],
      ['pause', 'Snoozed until 2026-11-23 12:30 UTC', '2026-11-23T12:30:00.000000Z'],
    ]);
  });

  it.each([
    [{ until: 'tomorrow' }],
    [{ until: '2026-11-23' }],
    [{ until: 5 }],
    [{ until: '2020-01-01T00:00:00Z' }],
    // Impossible dates and times, which Date.parse would roll over (2030-02-30 is not March 2nd).
    [{ until: '2030-02-30T10:00:00Z' }],
    [{ until: '2030-04-31T10:00:00Z' }],
    [{ until: '2029-02-29T10:00:00Z' }],
    [{ until: '2030-01-10T24:00:00Z' }],
    [{ until: '2030-01-10T10:60:00Z' }],
    [{ until: '2030-01-10T10:00:00+25:00' }],
  ])('answers 422 naming until for %j and changes nothing', async (body) => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create();
    const before = row(monitor.id);
    const response = await pause(monitor.id, body);
    expect(response.status).toBe(422);
    expect(Object.keys((await response.json()).errors)).toEqual(['until']);
    expect(row(monitor.id)).toEqual(before);
  });

  it('answers 401 and 404 for another company on pause and resume', async () => {
    const monitor = await create();
    const before = row(monitor.id);
    const other = agent.tokenFor(3);
    expect((await pause(monitor.id, {}, null)).status).toBe(401);
    expect((await resume(monitor.id, null)).status).toBe(401);
    expect((await pause(monitor.id, {}, other)).status).toBe(404);
    expect((await resume(monitor.id, other)).status).toBe(404);
    expect(row(monitor.id)).toEqual(before);
  });
});

describe('status new and list filters', () => {
  it('is new with last_pulse_at null until its first pulse; last_run_at stays a timestamp', async () => {
    const monitor = await create();
    expect(monitor).toMatchObject({ status: 'new', last_pulse_at: null });
    expect(monitor.last_run_at).toMatch(TIMESTAMP);
    await pulse(monitor.token);
    expect(await show(monitor.id)).toMatchObject({ status: 'monitoring', last_pulse_at: expect.stringMatching(TIMESTAMP) });
  });

  it('filters by status and project, and refuses unknown values', async () => {
    const company = agent.tokenFor(4);
    const make = (body: Record<string, unknown>) => agent.api('/api/monitors', { method: 'POST', json: body, token: company }).then((r) => r.json());
    const a = await make({ ...hourly, project_id: 1 });
    const b = await make({ ...hourly, project_id: 2 });
    await agent.api(`/api/monitors/${b.id}/pause`, { method: 'POST', token: company });
    const ids = async (query: string) => {
      const response = await agent.api(`/api/monitors${query}`, { token: company });
      expect(response.status).toBe(200);
      return (await response.json()).map((m: Monitor) => m.id);
    };
    expect(await ids('?status=paused')).toEqual([b.id]);
    expect(await ids('?status=new')).toEqual([a.id]);
    expect(await ids('?project_id=1')).toEqual([a.id]);
    expect(await ids('?status=new&project_id=2')).toEqual([]);
    for (const query of ['?status=down', '?project_id=x', '?project_id=0']) {
      expect((await agent.api(`/api/monitors${query}`, { token: company })).status, query).toBe(422);
    }
  });
});
