import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestAgent, TIMESTAMP, type TestAgent } from '../helpers/testAgent';
import { RecordingNotifier } from '../helpers/recordingNotifier';

// The agent's clock stands still unless a test moves it, so its loop never fails anything by itself.
let now = Date.parse('2026-11-21T09:58:30Z');
const notifier = new RecordingNotifier();
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now, notifier });
});
afterAll(() => agent.stop());
beforeEach(() => {
  now = Date.parse('2026-11-21T09:58:30Z');
  notifier.take();
});

async function createMonitor(body: Record<string, unknown> = {}) {
  const response = await agent.api('/api/monitors', {
    method: 'POST',
    json: { name: 'backup', timezone: 'UTC', schedule: '0 * * * *', duration: 5, ...body },
  });
  return response.json();
}

/** A pulse request with no Authorization header. */
function pulse(path: string, init: RequestInit = {}) {
  return fetch(`${agent.url}/api/pulse/${path}`, init);
}

async function history(monitorId: number, query = '') {
  return (await agent.api(`/api/monitors/${monitorId}/pulses${query}`)).json();
}

async function monitor(id: number) {
  return (await agent.api(`/api/monitors/${id}`)).json();
}

describe('pulse endpoints', () => {
  it("refuses another monitor's outcome in the query (?status=down, ?exit_code=3), which it would have counted as a success", async () => {
    const m = await createMonitor();
    for (const [query, field] of [['status=down', 'status'], ['state=fail', 'state'], ['status_code=1', 'status_code'], ['exit_code=3', 'exit_code'], ['status=up&msg=OK', 'status']]) {
      const response = await pulse(`${m.token}?${query}`, { method: 'POST' });
      expect(response.status, query).toBe(422);
      const body = await response.json();
      expect(Object.keys(body.errors)).toEqual([field]);
      expect(body.message).toContain("a pulse's outcome is in its path");
    }
    expect((await history(m.id)).total).toBe(0);
    // What a job's line sends still counts (the rid pairs a start with its end).
    expect((await pulse(`${m.token}/3?rid=run-1`, { method: 'POST' })).status).toBe(200);
  });

  it('answers OK to GET, POST and HEAD without Authorization, and records each', async () => {
    const m = await createMonitor();
    for (const method of ['GET', 'POST', 'HEAD']) {
      const response = await pulse(m.token, { method });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe(method === 'HEAD' ? '' : 'OK');
    }
    const page = await history(m.id);
    expect(page.total).toBe(3);
    expect(page.data.map((p: { method: string }) => p.method)).toEqual(['HEAD', 'POST', 'GET']);
    expect(page.data[0]).toEqual({
      id: expect.any(Number),
      monitor_id: m.id,
      kind: 'success',
      exit_code: null,
      rid: null,
      received_at: '2026-11-21T09:58:30.000000Z',
      duration_ms: null,
      method: 'HEAD',
      remote_address: expect.any(String),
      body: '',
      body_truncated: false,
      paused_until: null,
    });
  });

  it('keeps a POST body as the run output, and cuts one over 100 KB with a marker', async () => {
    const m = await createMonitor();
    await pulse(m.token, { method: 'POST', body: 'backup done: 42 files\n' });
    const big = 'x'.repeat(100 * 1024) + 'TAIL'.repeat(50_000);
    expect((await pulse(`${m.token}/1`, { method: 'POST', body: big })).status).toBe(200);
    const [cut, kept] = (await history(m.id)).data;
    expect(kept).toMatchObject({ body: 'backup done: 42 files\n', body_truncated: false });
    expect(cut.body_truncated).toBe(true);
    expect(cut.body.startsWith('x'.repeat(100 * 1024) + '\n[… 200000 more bytes cut')).toBe(true);
    expect(cut.body).not.toContain('TAIL');
  });

  it('answers 404 for an unknown, malformed or deleted token, and records nothing', async () => {
    const m = await createMonitor();
    expect((await pulse('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await pulse('not-a-token/start')).status).toBe(404);
    await agent.api(`/api/monitors/${m.id}`, { method: 'DELETE' });
    const gone = await pulse(m.token);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ message: 'Monitor not found.' });
    expect(agent.store.pulses.count(m.id)).toBe(0);
  });

  it('takes exit codes 0-255 and answers 400 naming the exit code for anything else', async () => {
    const m = await createMonitor();
    expect((await pulse(`${m.token}/0`)).status).toBe(200);
    expect((await monitor(m.id)).is_alerted).toBe(0);
    for (const bad of ['256', '-1', '1.5', 'abc', '0x1']) {
      const response = await pulse(`${m.token}/${bad}`);
      expect(response.status, bad).toBe(400);
      expect((await response.json()).errors).toHaveProperty('exit_code');
    }
    expect(agent.store.pulses.count(m.id)).toBe(1);
    expect((await pulse(`${m.token}/255`, { method: 'POST' })).status).toBe(200);
    const failed = await monitor(m.id);
    expect(failed).toMatchObject({ is_alerted: 1, alert_reason: 'Failed: the job exited with code 255', status: 'failed', next_due_at: null });
    expect(notifier.take().map((p) => p.title)).toEqual(['✗ backup failed (exit 255)']);
  });

  it('fails on /fail and recovers on the next success, with a notification and a popup each', async () => {
    const m = await createMonitor({ name: 'db-dump' });
    await pulse(`${m.token}/fail`, { method: 'POST', body: 'disk full' });
    now += 60_000;
    await pulse(m.token);
    const notes = (await (await agent.api('/api/notifications?per_page=100&kinds=all')).json()).data.filter(
      (n: { data: { type_id: number } }) => n.data.type_id === m.id,
    );
    expect(notes.map((n: { type: string }) => n.type)).toEqual([
      'App\\Notifications\\MonitorRecoveredNotification',
      'App\\Notifications\\MonitorFailedNotification',
    ]);
    expect(notifier.take().map((p) => p.title)).toEqual(['✗ db-dump failed', '✓ db-dump recovered']);
    expect(await monitor(m.id)).toMatchObject({ is_alerted: 0, alert_reason: '', status: 'monitoring', last_run_at: '2026-11-21T09:59:30.000000Z' });
  });

  it('pairs /start with its end by rid and shows running meanwhile', async () => {
    const m = await createMonitor({ duration: 30 });
    await pulse(`${m.token}/start?rid=run-1`);
    const running = await monitor(m.id);
    expect(running.status).toBe('running');
    // The grace limits how late a run starts, not how long it takes: a run without a max run time of
    // its own is due to end by the next run's deadline (10:00 + 30 min).
    expect(running.next_due_at).toBe('2026-11-21T10:30:00.000000Z');
    now += 42_000;
    await pulse(`${m.token}/0?rid=run-1`);
    const [end] = (await history(m.id)).data;
    expect(end).toMatchObject({ kind: 'success', exit_code: 0, rid: 'run-1', duration_ms: 42_000 });
    expect((await monitor(m.id)).status).toBe('monitoring');
  });

  it('answers 422 naming rid when it is too long', async () => {
    const m = await createMonitor();
    const response = await pulse(`${m.token}?rid=${'r'.repeat(201)}`);
    expect(response.status).toBe(422);
    expect(Object.keys((await response.json()).errors)).toEqual(['rid']);
    expect(agent.store.pulses.count(m.id)).toBe(0);
  });

  it('credits a replayed pulse to its X-Cronbeat-Sent-At time, at most 24 h back and never ahead', async () => {
    const m = await createMonitor();
    const sentAt = (ms: number) => ({ headers: { 'X-Cronbeat-Sent-At': new Date(ms).toISOString() } });
    await pulse(m.token, sentAt(now - 3_600_000));
    await pulse(m.token, sentAt(now - 25 * 3_600_000));
    await pulse(m.token, sentAt(now + 60_000));
    await pulse(m.token, { headers: { 'X-Cronbeat-Sent-At': 'yesterday' } });
    const times = (await history(m.id)).data.map((p: { received_at: string }) => p.received_at).sort();
    expect(times).toEqual([
      '2026-11-20T09:58:30.000000Z',
      '2026-11-21T08:58:30.000000Z',
      '2026-11-21T09:58:30.000000Z',
      '2026-11-21T09:58:30.000000Z',
    ]);
  });
});

describe('a spool older than a day', () => {
  it('replayed in order, its newest pulse decides: a failure after a success more than 24 h old fails the monitor', async () => {
    // The laptop's agent was closed from Friday to Monday 09:58; the job's machine spooled its pulses.
    const m = await createMonitor({ schedule: '0 3 * * *', duration: 30 });
    const sentAt = (iso: string) => ({ headers: { 'X-Cronbeat-Sent-At': iso } });
    now = Date.parse('2026-11-23T09:58:30Z');
    await pulse(m.token, sentAt('2026-11-21T03:00:05Z')); // Saturday's run: more than 24 h back
    await pulse(`${m.token}/fail`, sentAt('2026-11-23T03:00:05Z')); // Monday's run failed
    expect(await monitor(m.id)).toMatchObject({ status: 'failed', is_alerted: 1 });
    const times = (await history(m.id)).data.map((p: { kind: string; received_at: string }) => [p.kind, p.received_at]);
    // The older one counts for the oldest moment believed, 24 h back, so it stays before the newer one.
    expect(times).toEqual([
      ['fail', '2026-11-23T03:00:05.000000Z'],
      ['success', '2026-11-22T09:58:30.000000Z'],
    ]);
  });
});

describe('a job machine whose clock is hours wrong', () => {
  it('a late pulse counts for its age on that machine, not for the time its clock states', async () => {
    const m = await createMonitor();
    // Sent 10 minutes late by a machine whose clock is 5 h behind.
    const headers = { 'X-Cronbeat-Sent-At': '2026-11-21T04:48:30Z', 'X-Cronbeat-Age-Ms': '600000' };
    expect((await pulse(m.token, { headers })).status).toBe(200);
    expect((await history(m.id)).data.map((p: { received_at: string }) => p.received_at)).toEqual(['2026-11-21T09:48:30.000000Z']);
    expect(await monitor(m.id)).toMatchObject({ last_pulse_at: '2026-11-21T09:48:30.000000Z', next_due_at: '2026-11-21T10:05:00.000000Z' });
  });

  it('answers 422 naming X-Cronbeat-Age-Ms for an age that is no whole number of milliseconds, and stores nothing', async () => {
    const m = await createMonitor();
    const response = await pulse(m.token, { headers: { 'X-Cronbeat-Age-Ms': '-5' } });
    expect(response.status).toBe(422);
    expect(Object.keys((await response.json()).errors)).toEqual(['x-cronbeat-age-ms']);
    expect(agent.store.pulses.count(m.id)).toBe(0);
  });
});

describe('retries and measured durations', () => {
  const keyed = (key: string, extra: Record<string, string> = {}) => ({ method: 'POST', headers: { 'Idempotency-Key': key, ...extra } });

  it('stores a pulse once per Idempotency-Key and monitor, answering each retry as the first', async () => {
    const [m, other] = [await createMonitor(), await createMonitor()];
    const answers = await Promise.all([1, 2, 3].map(() => pulse(`${m.token}/start?rid=r1`, keyed('k-1'))));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await Promise.all(answers.map((r) => r.text()))).toEqual(['OK', 'OK', 'OK']);
    now += 1000;
    expect((await pulse(`${m.token}/0?rid=r1`, keyed('"k-2"'))).status).toBe(200);
    expect((await pulse(`${m.token}/0?rid=r1`, keyed('k-2'))).status).toBe(200); // quoted or not, one key
    expect((await pulse(other.token, keyed('k-1'))).status).toBe(200); // another monitor, its own keys
    expect((await history(m.id)).data.map((p: { kind: string }) => p.kind)).toEqual(['success', 'start']);
    expect(agent.store.pulses.count(other.id)).toBe(1);
  });

  it('answers 422 naming Idempotency-Key for a different pulse under a used key, or a malformed key, and stores nothing', async () => {
    const m = await createMonitor();
    await pulse(m.token, keyed('k-1'));
    const reused = await pulse(`${m.token}/fail`, keyed('k-1'));
    expect(reused.status).toBe(422);
    expect(Object.keys((await reused.json()).errors)).toEqual(['idempotency-key']);
    const long = await pulse(m.token, keyed('k'.repeat(256)));
    expect(long.status).toBe(422);
    expect(Object.keys((await long.json()).errors)).toEqual(['idempotency-key']);
    expect(agent.store.pulses.count(m.id)).toBe(1);
    expect((await monitor(m.id)).status).toBe('monitoring');
  });

  it('records the duration the client measured, and never a negative one when the clocks disagree', async () => {
    const m = await createMonitor();
    await pulse(`${m.token}/start?rid=a`);
    now += 90_000;
    await pulse(`${m.token}/0?rid=a`, { headers: { 'X-Cronbeat-Duration-Ms': '5' } });
    await pulse(`${m.token}/start?rid=b`);
    // The end was stamped an hour before its start: the job's clock was set back meanwhile.
    await pulse(`${m.token}/0?rid=b`, { headers: { 'X-Cronbeat-Sent-At': new Date(now - 3_600_000).toISOString() } });
    const ends = (await history(m.id)).data.filter((p: { kind: string }) => p.kind === 'success');
    expect(ends.map((p: { rid: string; duration_ms: number }) => [p.rid, p.duration_ms])).toEqual([['a', 5], ['b', 0]]);
    const bad = await pulse(`${m.token}/0`, { headers: { 'X-Cronbeat-Duration-Ms': '-3' } });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).errors)).toEqual(['x-cronbeat-duration-ms']);
  });
});

describe('monitor fields and run history', () => {
  it('shows status, next_due_at and an absolute pulse_url on every monitor response', async () => {
    const created = await createMonitor({ schedule: '*/15 * * * *', duration: 10 });
    for (const m of [created, await monitor(created.id), (await (await agent.api('/api/monitors')).json()).at(-1)]) {
      // No pulse yet: the monitor is new.
      expect(m.status).toBe('new');
      expect(m.last_pulse_at).toBeNull();
      expect(m.next_due_at).toBe('2026-11-21T10:10:00.000000Z');
      expect(m.next_due_at).toMatch(TIMESTAMP);
      expect(m.pulse_url).toBe(`${agent.url}/api/pulse/${created.token}`);
    }
    expect((await fetch(created.pulse_url)).status).toBe(200);
  });

  it('pages the history like notifications, newest first', async () => {
    const m = await createMonitor();
    for (let i = 0; i < 25; i++) {
      now += 1000;
      await pulse(`${m.token}?rid=p${i}`);
    }
    const page = await history(m.id, '?page=3&per_page=10');
    expect(page).toMatchObject({ current_page: 3, from: 21, to: 25, last_page: 3, per_page: 10, total: 25, next_page_url: null });
    expect(page.path).toBe(`${agent.url}/api/monitors/${m.id}/pulses`);
    expect(page.prev_page_url).toBe(`${agent.url}/api/monitors/${m.id}/pulses?per_page=10&page=2`);
    expect(page.links).toHaveLength(5);
    expect(page.data.map((p: { rid: string }) => p.rid)).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
  });

  it('keeps the history behind the API token of the monitor company', async () => {
    const m = await createMonitor();
    expect((await agent.api(`/api/monitors/${m.id}/pulses`, { token: null })).status).toBe(401);
    expect((await agent.api(`/api/monitors/${m.id}/pulses`, { token: agent.tokenFor(2) })).status).toBe(404);
    expect((await agent.api('/api/monitors/999999/pulses')).status).toBe(404);
    expect((await agent.api(`/api/monitors/${m.id}/pulses?per_page=101`)).status).toBe(422);
  });
});
