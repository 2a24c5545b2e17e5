import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { DEFAULT_MAX_LINE_MONITORS, LINE_CREATIONS_PER_MINUTE } from '../../agent/domain/monitors/lineLimits';

/*
 * What one key's lines may make: at most max_monitors live monitors (default 100), and at most
 * 30 new ones a minute. Past either, 403 or 429 naming the limit, and nothing is created. The
 * clock is the agent's own, moved by the test (no sleeps).
 */

let agent: TestAgent;
let now = Date.parse('2026-11-27T12:00:00Z');
// While set, the agent's clock is the machine's, as the job's is: a spool's replay whose stated
// times an agent a day off would not believe, and would place by their ages, a few ms apart.
let machineClock = false;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => (machineClock ? Date.now() : now) });
});
afterAll(() => agent.stop());

const line = (key: string, slug: string, query: Record<string, string> = { create: '1', schedule: '@daily' }) =>
  fetch(`${agent.url}/api/pulse/key/${key}/${slug}?${new URLSearchParams(query)}`);
const ownedBy = (keyId: number) => agent.store.monitors.list(1).filter((m) => m.line_key_id === keyId);
const newKey = async (body: Record<string, unknown>) => agent.api('/api/keys', { method: 'POST', json: { scope: 'ping', ...body } });

describe('max_monitors: how many monitors a key\'s lines may make', () => {
  it('is set on create, listed, changed by PATCH, and checked like any field', async () => {
    const made = await newKey({ name: 'web-01', max_monitors: 3 });
    expect(made.status).toBe(201);
    const key = await made.json();
    expect(key.max_monitors).toBe(3);
    const plain = await (await newKey({ name: 'web-02' })).json();
    expect(plain.max_monitors).toBe(DEFAULT_MAX_LINE_MONITORS);
    const listed = await (await agent.api('/api/keys')).json();
    expect(listed.find((k: { id: number }) => k.id === key.id).max_monitors).toBe(3);

    for (const bad of [0, 10_001, 1.5, '3', true]) {
      const answer = await newKey({ name: 'bad', max_monitors: bad });
      expect(answer.status).toBe(422);
      expect((await answer.json()).errors).toHaveProperty('max_monitors');
    }
    const patched = await agent.api(`/api/keys/${key.id}`, { method: 'PATCH', json: { max_monitors: 5 } });
    expect(patched.status).toBe(200);
    expect((await patched.json()).max_monitors).toBe(5);
    const reset = await agent.api(`/api/keys/${key.id}`, { method: 'PATCH', json: { max_monitors: null } });
    expect((await reset.json()).max_monitors).toBe(DEFAULT_MAX_LINE_MONITORS);
    expect((await agent.api(`/api/keys/${key.id}`, { method: 'PATCH', json: {} })).status).toBe(422);
    expect((await agent.api(`/api/keys/${key.id}`, { method: 'PATCH', json: { max_monitors: 2, scope: 'full' } })).status).toBe(422);
    expect((await agent.api('/api/keys/999999', { method: 'PATCH', json: { max_monitors: 2 } })).status).toBe(404);
    const readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'wall', scope: 'read-only', now }).token;
    expect((await agent.api(`/api/keys/${key.id}`, { method: 'PATCH', json: { max_monitors: 9_999 }, token: readOnly })).status).toBe(403);
  });

  it('of a revoked key or another company\'s is a 404 whatever the body, as every PATCH of something not there', async () => {
    const revoked = await (await newKey({ name: 'gone' })).json();
    expect((await agent.api(`/api/keys/${revoked.id}`, { method: 'DELETE' })).status).toBe(204);
    agent.tokenFor(2);
    const theirs = agent.store.apiTokens.listLive(2)[0].id;
    for (const id of [revoked.id, theirs, 999_999]) {
      for (const body of [{}, { max_monitors: 'many' }, { name: 'renamed' }]) {
        const answer = await agent.api(`/api/keys/${id}`, { method: 'PATCH', json: body });
        expect(answer.status, `${id} ${JSON.stringify(body)}`).toBe(404);
        expect(await answer.json()).toEqual({ message: 'Key not found.' });
      }
    }
  });

  it('past the limit a line gets 403 naming it and nothing is created; its monitors still pulse; deleting one makes room', async () => {
    const key = await (await newKey({ name: 'web-03', max_monitors: 3 })).json();
    for (const slug of ['job-a', 'job-b', 'job-c']) expect((await line(key.key, slug)).status).toBe(201);
    const refused = await line(key.key, 'job-d');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-cronbeat-monitor-token')).toBeNull();
    expect((await refused.json()).message).toMatch(/made 3 monitors, as many as it may \(max_monitors 3\); "job-d" was not created/);
    expect(ownedBy(key.id).map((m) => m.slug)).toEqual(['job-a', 'job-b', 'job-c']);
    // Another key has its own room.
    const other = await (await newKey({ name: 'web-04', max_monitors: 1 })).json();
    expect((await line(other.key, 'job-d')).status).toBe(201);

    expect((await line(key.key, 'job-a', {})).status).toBe(200);
    expect((await agent.api(`/api/monitors/${ownedBy(key.id)[0].id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await line(key.key, 'job-e')).status).toBe(201);
    await agent.api(`/api/keys/${key.id}`, { method: 'PATCH', json: { max_monitors: 4 } });
    expect((await line(key.key, 'job-f')).status).toBe(201);
  });

  it(`a key without its own limit may have ${DEFAULT_MAX_LINE_MONITORS} monitors`, async () => {
    const { token, id } = agent.store.apiTokens.create({ companyId: 1, name: 'web-05', scope: 'ping', now });
    for (let i = 0; i < DEFAULT_MAX_LINE_MONITORS; i++) {
      if (i % LINE_CREATIONS_PER_MINUTE === 0) now += 60_000;
      expect((await line(token, `default-${i}`)).status).toBe(201);
    }
    now += 60_000;
    expect((await line(token, 'one-too-many')).status).toBe(403);
    expect(ownedBy(id)).toHaveLength(DEFAULT_MAX_LINE_MONITORS);
  });
});

describe('the rate at which a key\'s lines make monitors', () => {
  it(`${LINE_CREATIONS_PER_MINUTE} at once, then 429 with Retry-After until the bucket refills; pulses to made monitors are never slowed`, async () => {
    now += 60_000;
    const { token, id } = agent.store.apiTokens.create({ companyId: 1, name: 'web-06', scope: 'ping', now, maxMonitors: 1_000 });
    for (let i = 0; i < LINE_CREATIONS_PER_MINUTE; i++) expect((await line(token, `burst-${i}`)).status).toBe(201);
    const refused = await line(token, 'burst-more');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect((await refused.json()).message).toBe(
      `This key's lines may make ${LINE_CREATIONS_PER_MINUTE} new monitors a minute; "burst-more" was not created. Try again in 2 s.`,
    );
    expect(ownedBy(id)).toHaveLength(LINE_CREATIONS_PER_MINUTE);
    expect((await line(token, 'burst-0', {})).status).toBe(200);
    const stranger = agent.store.apiTokens.create({ companyId: 1, name: 'web-07', scope: 'ping', now }).token;
    expect((await line(stranger, 'not-slowed')).status).toBe(201);

    now += 2_000;
    expect((await line(token, 'burst-more')).status).toBe(201);
    expect((await line(token, 'burst-again')).status).toBe(429);
  });
});

describe('cronbeat run --name past the rate: the job runs, one line says why, the spool makes the monitor later', () => {
  it('keeps the pulses in the spool and says so once; a flush a minute later creates the monitor', async () => {
    now += 60_000;
    const { token, id } = agent.store.apiTokens.create({ companyId: 1, name: 'web-08', scope: 'ping', now });
    for (let i = 0; i < LINE_CREATIONS_PER_MINUTE; i++) expect((await line(token, `cli-burst-${i}`)).status).toBe(201);
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: token, CRONBEAT_DATA_DIR: tempFolder() };
    const result = await runCli(['run', '--name', 'late-comer', '--schedule', '@daily', '--', 'sh', '-c', 'echo ran; exit 3'], { env });
    expect(result).toMatchObject({ status: 3, stdout: 'ran\n' });
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cronbeat: start and end pulses saved to the spool \(.* answered 429 This key's lines may make 30 new monitors a minute; "late-comer" was not created\. Try again in 2 s\.\); 2 pulses waiting/);
    expect(ownedBy(id).some((m) => m.slug === 'late-comer')).toBe(false);

    // A minute later and more: the agent's clock is the machine's, a day after `now`.
    machineClock = true;
    expect((await runCli(['spool', 'flush'], { env })).status).toBe(0);
    machineClock = false;
    const made = ownedBy(id).find((m) => m.slug === 'late-comer')!;
    expect(agent.store.pulses.page(made.id, 10, 0).map((p) => p.kind).reverse()).toEqual(['start', 'fail']);
  }, 60_000);
});
