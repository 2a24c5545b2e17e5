import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

let agent: TestAgent;
let ping: string;
beforeAll(async () => {
  agent = await startTestAgent();
  ping = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() }).token;
});
afterAll(() => agent.stop());

const line = (slug: string, query: Record<string, string>, action = '', key = ping) =>
  fetch(`${agent.url}/api/pulse/key/${key}/${slug}${action}?${new URLSearchParams(query)}`);
const monitorsWithSlug = (slug: string) => agent.store.monitors.list(1).filter((m) => m.slug === slug);
const changesOf = async (id: number) => (await agent.api(`/api/monitors/${id}/changes`)).json();

describe('a job line creates and updates its monitor', () => {
  it('creates it on the first pulse with create=1, then finds it: 201 then 200, the same monitor token', async () => {
    const first = await line('nightly-backup', { create: '1', schedule: '0 3 * * *', tz: 'Europe/Paris', grace: '30', name: 'Nightly backup' }, '/start');
    expect(first.status).toBe(201);
    expect(await first.text()).toBe('OK (created)');
    const token = first.headers.get('x-cronbeat-monitor-token');
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    const again = await line('nightly-backup', { create: '1', schedule: '0 3 * * *', tz: 'Europe/Paris', grace: '30' }, '/0');
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('OK');
    expect(again.headers.get('x-cronbeat-monitor-token')).toBe(token);

    const [monitor] = monitorsWithSlug('nightly-backup');
    expect(monitor).toMatchObject({ name: 'Nightly backup', schedule: '0 3 * * *', timezone: 'Europe/Paris', duration: 30, token });
    const shown = await (await agent.api(`/api/monitors/${monitor.id}`)).json();
    expect(shown).toMatchObject({ slug: 'nightly-backup', tags: [], status: 'monitoring' });
    const pulses = await (await agent.api(`/api/monitors/${monitor.id}/pulses`)).json();
    expect(pulses.data.map((p: { kind: string }) => p.kind)).toEqual(['success', 'start']);
  });

  it('follows the line when its schedule, zone or grace change, and the history says the line did it', async () => {
    await line('reports', { create: '1', schedule: '0 6 * * *', tz: 'UTC', grace: '10' });
    await line('reports', { create: '1', schedule: '30 6 * * 1-5', tz: 'UTC', grace: '15' });
    const [monitor] = monitorsWithSlug('reports');
    expect(monitor).toMatchObject({ schedule: '30 6 * * 1-5', duration: 15 });
    const [change, created] = await changesOf(monitor.id);
    expect(change).toMatchObject({ source: 'line', changes: { schedule: { from: '0 6 * * *', to: '30 6 * * 1-5' }, duration: { from: 10, to: 15 } } });
    expect(created).toMatchObject({ source: 'line', changes: { created: { to: { slug: 'reports', schedule: '0 6 * * *' } } } });
  });

  it("takes a systemd timer's calendar events (one a line) or a period in ?schedule=, and follows a change from one kind to another", async () => {
    const created = await line('timer-backup', { create: '1', schedule: 'Mon..Fri 02:30\nSat 04:00', tz: 'Europe/Paris', grace: '20' });
    expect(created.status).toBe(201);
    const [monitor] = monitorsWithSlug('timer-backup');
    expect(monitor).toMatchObject({ schedule: 'Mon..Fri 02:30\nSat 04:00', timezone: 'Europe/Paris', duration: 20 });
    await line('timer-backup', { create: '1', schedule: '@every 6h', tz: 'Europe/Paris', grace: '20' });
    expect(monitorsWithSlug('timer-backup')[0]).toMatchObject({ schedule: '@every 6h' });
    const refused = await line('timer-backup', { create: '1', schedule: 'Mon..Fri 26:30', tz: 'Europe/Paris' });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors.schedule).toEqual(['The schedule field is not valid: The hour is 26, but hours go from 0 to 23.']);
    // Line breaks separate calendar events; any other control character is still refused.
    const escaped = await line('timer-backup', { create: '1', schedule: 'Mon..Fri 02:30\u001b[2J', tz: 'Europe/Paris' });
    expect(escaped.status).toBe(422);
    expect((await escaped.json()).errors.schedule[0]).toMatch(/must not contain control characters \(it has ESC/);
  });

  it('an edit in the dashboard holds until the next run of the line, which wins; the history shows both', async () => {
    await line('sync', { create: '1', schedule: '*/5 * * * *', grace: '5' });
    const [monitor] = monitorsWithSlug('sync');
    const edited = await agent.api(`/api/monitors/${monitor.id}`, { method: 'PATCH', json: { schedule: '*/10 * * * *', name: 'Sync (edited)' } });
    expect((await edited.json()).schedule).toBe('*/10 * * * *');
    await line('sync', { create: '1', schedule: '*/5 * * * *', grace: '5' });
    const after = agent.store.monitors.find(1, monitor.id)!;
    expect(after).toMatchObject({ schedule: '*/5 * * * *', name: 'Sync (edited)' });
    const [byLine, byApi] = await changesOf(monitor.id);
    expect(byApi).toMatchObject({ source: 'api', changes: { schedule: { from: '*/5 * * * *', to: '*/10 * * * *' }, name: { to: 'Sync (edited)' } } });
    expect(byLine).toMatchObject({ source: 'line', changes: { schedule: { from: '*/10 * * * *', to: '*/5 * * * *' } } });
  });

  it('creates a monitor exactly once when many runs of the line pulse at the same instant', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => line('burst', { create: '1', schedule: '* * * * *' }, '/start')),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(39).fill(200), 201]);
    expect(new Set(answers.map((a) => a.headers.get('x-cronbeat-monitor-token'))).size).toBe(1);
    expect(monitorsWithSlug('burst')).toHaveLength(1);
  });

  it('never adopts a monitor made in the dashboard whose name has the slug: 409, no token, nothing changed', async () => {
    const made = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'DB Dump', timezone: 'UTC', schedule: '0 1 * * *', duration: 20 } })).json();
    const answer = await line('db-dump', { create: '1', schedule: '0 2 * * *' });
    expect(answer.status).toBe(409);
    expect(answer.headers.get('x-cronbeat-monitor-token')).toBeNull();
    expect(agent.store.monitors.find(1, made.id)).toMatchObject({ slug: null, schedule: '0 1 * * *', line_key_id: null });
    expect(monitorsWithSlug('db-dump')).toHaveLength(0);
  });

  it('tags the monitor with the line\'s server, keeping tags set elsewhere', async () => {
    await line('rotate-logs', { create: '1', schedule: '0 0 * * *', server: 'web-01' });
    const [monitor] = monitorsWithSlug('rotate-logs');
    await agent.api(`/api/monitors/${monitor.id}`, { method: 'PATCH', json: { tags: ['prod'] } });
    await line('rotate-logs', { create: '1', schedule: '0 0 * * *', server: 'web-01' });
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).tags).toEqual(['prod', 'server:web-01']);
  });
});

describe('what a line pulse refuses', () => {
  it('answers 404 for an unknown slug without create=1, and creates nothing', async () => {
    const answer = await line('never-made', { schedule: '0 3 * * *' });
    expect(answer.status).toBe(404);
    expect((await answer.json()).message).toMatch(/create=1/);
    expect(monitorsWithSlug('never-made')).toHaveLength(0);
  });

  it('answers 422 naming the field for a bad schedule, zone or grace, or a new monitor without a schedule', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ create: '1', schedule: '0 25 * * *' }, 'schedule'],
      [{ create: '1', schedule: '0 3 * * *', tz: 'Mars/Olympus' }, 'tz'],
      [{ create: '1', schedule: '0 3 * * *', grace: '0' }, 'grace'],
      [{ create: '1' }, 'schedule'],
    ];
    for (const [query, field] of cases) {
      const answer = await line('bad-line', query);
      expect(answer.status, JSON.stringify(query)).toBe(422);
      expect(Object.keys((await answer.json()).errors)).toEqual([field]);
    }
    expect(monitorsWithSlug('bad-line')).toHaveLength(0);
  });

  it('answers 422 naming a parameter it does not take (timezone for tz, duration for grace), never a monitor made in UTC', async () => {
    for (const [wrong, value] of [['timezone', 'Europe/Paris'], ['duration', '30'], ['schedul', '0 3 * * *']]) {
      const answer = await line('misspelt-line', { create: '1', schedule: '0 3 * * *', [wrong]: value });
      expect(answer.status, wrong).toBe(422);
      const { errors } = await answer.json();
      expect(Object.keys(errors), wrong).toEqual([wrong]);
      expect(errors[wrong][0]).toMatch(/create, name, schedule, tz, grace, max_runtime, alert_after, server, rid/);
    }
    expect(monitorsWithSlug('misspelt-line')).toHaveLength(0);
    // rid pairs a start with its end, as on every pulse.
    expect((await line('misspelt-line', { create: '1', schedule: '0 3 * * *', rid: 'r-1' }, '/start')).status).toBe(201);
  });

  it('answers 422 for a value whose percent-encoding is not UTF-8 (%E9, Latin-1), never a monitor named with "�"', async () => {
    for (const [field, encoded] of [['name', 'r%E9seau'], ['server', 'caf%E9']]) {
      const answer = await fetch(`${agent.url}/api/pulse/key/${ping}/latin-line?create=1&schedule=0+3+*+*+*&${field}=${encoded}`);
      expect(answer.status, field).toBe(422);
      const { errors } = await answer.json();
      expect(errors[field], field).toEqual([`The ${field} field is not UTF-8: percent-encode its bytes in UTF-8 (é is %C3%A9).`]);
    }
    expect(monitorsWithSlug('latin-line')).toHaveLength(0);
    expect((await fetch(`${agent.url}/api/pulse/key/${ping}/latin-line?create=1&schedule=0+3+*+*+*&name=r%C3%A9seau`)).status).toBe(201);
    expect(monitorsWithSlug('latin-line')[0].name).toBe('réseau');
  });

  it('answers 422 for a slug that is not one', async () => {
    const answer = await line('Nightly%20Backup', { create: '1', schedule: '0 3 * * *' });
    expect(answer.status).toBe(422);
    expect((await answer.json()).errors).toHaveProperty('slug');
  });

  it('answers 422 for a slug of digits alone, which a badge URL would read as another monitor\'s id; nothing is created', async () => {
    const before = agent.store.monitors.list(1).length;
    const answer = await line('42', { create: '1', schedule: '0 3 * * *' });
    expect(answer.status).toBe(422);
    expect((await answer.json()).errors.slug[0]).toMatch(/at least one letter/);
    expect(agent.store.monitors.list(1)).toHaveLength(before);
  });

  it('changes nothing of the monitor when the pulse is refused for an Idempotency-Key used by another pulse (422), nor on a retry', async () => {
    const keyed = (action: string, query: Record<string, string>, key: string) =>
      fetch(`${agent.url}/api/pulse/key/${ping}/keyed-job${action}?${new URLSearchParams(query)}`, { headers: { 'Idempotency-Key': key } });
    expect((await keyed('', { create: '1', schedule: '0 5 * * *', grace: '10' }, 'run-1')).status).toBe(201);
    const [made] = monitorsWithSlug('keyed-job');
    const history = await changesOf(made.id);

    const refused = await keyed('/fail', { schedule: '0 0 1 1 *', grace: '525600', alert_after: '100', tz: 'Asia/Tokyo', server: 'web-09' }, 'run-1');
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors).toHaveProperty('idempotency-key');
    expect(refused.headers.get('x-cronbeat-monitor-token')).toBeNull();
    // A retry of the first pulse is answered as the first, and the line's other words change nothing either.
    const retry = await keyed('', { schedule: '0 6 * * *' }, 'run-1');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('x-cronbeat-monitor-token')).toBe(made.token);
    expect(monitorsWithSlug('keyed-job')[0]).toEqual(made);
    expect(await changesOf(made.id)).toEqual(history);
    expect(agent.store.pulses.count(made.id)).toBe(1);
    // A new pulse still follows the line.
    expect((await keyed('', { schedule: '0 6 * * *' }, 'run-2')).status).toBe(200);
    expect(monitorsWithSlug('keyed-job')[0].schedule).toBe('0 6 * * *');
  });

  it('answers 401 for an unknown key and 403 for a read-only or badge key', async () => {
    expect((await line('x', { create: '1', schedule: '0 3 * * *' }, '', 'cb_wrong')).status).toBe(401);
    for (const scope of ['read-only', 'badge'] as const) {
      const key = agent.store.apiTokens.create({ companyId: 1, name: scope, scope, now: Date.now() }).token;
      expect((await line('x', { create: '1', schedule: '0 3 * * *' }, '', key)).status).toBe(403);
    }
    expect(monitorsWithSlug('x')).toHaveLength(0);
  });

  it("a key of another company makes that company's monitor, never touching this one's", async () => {
    agent.store.companies.ensure(2, Date.now());
    const other = agent.store.apiTokens.create({ companyId: 2, name: 'p', scope: 'ping', now: Date.now() }).token;
    const answer = await line('nightly-backup', { create: '1', schedule: '0 4 * * *' }, '', other);
    expect(answer.status).toBe(201);
    expect(monitorsWithSlug('nightly-backup')[0].schedule).toBe('0 3 * * *');
  });
});
