import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A job's line may pulse and change only a monitor its own key's line made (or an admin handed
 * to that key): another key's line, a line whose monitor's key was revoked, a line naming a
 * monitor made in the dashboard, and a monitor made before keys were recorded all get 409, no
 * token, and nothing recorded or changed.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const pingKey = (name: string) => agent.store.apiTokens.create({ companyId: 1, name, scope: 'ping', now: Date.now() });
const line = (key: string, slug: string, query: Record<string, string> = {}, action = '') =>
  fetch(`${agent.url}/api/pulse/key/${key}/${slug}${action}?${new URLSearchParams(query)}`);
const bySlug = (slug: string) => agent.store.monitors.list(1).find((m) => m.slug === slug)!;
const pulseCount = (id: number) => agent.store.pulses.count(id);
const hand = (monitorId: number, keyId: unknown, token?: string) =>
  agent.api(`/api/monitors/${monitorId}/line-key`, { method: 'PUT', json: { key_id: keyId }, token });

/** Everything a refused line pulse must leave as it was: the monitor's row, its run history and its settings history. */
function snapshot(id: number) {
  return { row: agent.store.monitors.find(1, id), pulses: pulseCount(id), changes: agent.store.monitorLines.changes(id) };
}

async function expectRefused(answer: Response, words: RegExp) {
  expect(answer.status).toBe(409);
  expect(answer.headers.get('x-cronbeat-monitor-token')).toBeNull();
  const { message } = await answer.json();
  expect(message).toMatch(words);
  expect(message).not.toContain('\n');
}

describe("another key's line", () => {
  it('can neither re-schedule, pulse nor recover a monitor another key made; the owner still can', async () => {
    const owner = pingKey('web-01');
    const stranger = pingKey('web-02');
    expect((await line(owner.token, 'db-dump', { create: '1', schedule: '0 3 * * *', grace: '30' })).status).toBe(201);
    const monitor = bySlug('db-dump');
    expect(monitor.line_key_id).toBe(owner.id);
    expect((await line(owner.token, 'db-dump', {}, '/fail')).status).toBe(200);
    const before = snapshot(monitor.id);
    expect(before.row!.is_alerted).toBe(1);

    // The silencing of the report: a schedule that comes once a year, with a year of grace.
    await expectRefused(await line(stranger.token, 'db-dump', { create: '1', schedule: '0 0 1 1 *', grace: '525600' }), /another key's line/);
    await expectRefused(await line(stranger.token, 'db-dump'), /neither pulse nor change it/);
    await expectRefused(await line(stranger.token, 'db-dump', {}, '/0'), /hand that monitor to this key \(id \d+\)/);
    expect(snapshot(monitor.id)).toEqual(before);

    const recovered = await line(owner.token, 'db-dump', { grace: '45' }, '/0');
    expect(recovered.status).toBe(200);
    expect(recovered.headers.get('x-cronbeat-monitor-token')).toBe(monitor.token);
    expect(agent.store.monitors.find(1, monitor.id)).toMatchObject({ is_alerted: 0, duration: 45 });
  });

  it("a full key's line owns what it makes like any key, and another key's line cannot take it", async () => {
    const full = agent.store.apiTokens.create({ companyId: 1, name: 'admin laptop', scope: 'full', now: Date.now() });
    expect((await line(full.token, 'laptop-backup', { create: '1', schedule: '@daily' })).status).toBe(201);
    expect(bySlug('laptop-backup').line_key_id).toBe(full.id);
    await expectRefused(await line(pingKey('web-03').token, 'laptop-backup', { schedule: '@yearly' }), /another key's line/);
  });
});

describe('a monitor no line of this key made', () => {
  it('a monitor made in the dashboard: refused (404 without create=1), until an admin hands it over', async () => {
    const key = pingKey('web-04');
    const made = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'Nightly Export', timezone: 'UTC', schedule: '0 1 * * *', duration: 20 } })).json();
    const before = snapshot(made.id);
    await expectRefused(await line(key.token, 'nightly-export', { create: '1', schedule: '0 2 * * *' }), /made in the dashboard or the API/);
    // Without create=1 no monitor is looked for by its name: no monitor has the slug yet.
    expect((await line(key.token, 'nightly-export')).status).toBe(404);
    expect(snapshot(made.id)).toEqual(before);

    const handed = await hand(made.id, key.id);
    expect(handed.status).toBe(200);
    expect(await handed.json()).toEqual({ monitor_id: made.id, slug: 'nightly-export', key_id: key.id });
    const answer = await line(key.token, 'nightly-export', { schedule: '0 2 * * *' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-cronbeat-monitor-token')).toBe(made.token);
    expect(agent.store.monitors.find(1, made.id)).toMatchObject({ schedule: '0 2 * * *', slug: 'nightly-export' });
    const [byLine, handover] = agent.store.monitorLines.changes(made.id);
    expect(JSON.parse(handover.changes)).toEqual({ line_key_id: { from: null, to: key.id }, slug: { from: null, to: 'nightly-export' } });
    expect(byLine.source).toBe('line');
  });

  it('a monitor whose key was revoked: the new key is refused, saying so, until an admin hands it over', async () => {
    const old = pingKey('web-05 (old)');
    const replacement = pingKey('web-05');
    await line(old.token, 'rotate-logs', { create: '1', schedule: '0 0 * * *' });
    const monitor = bySlug('rotate-logs');
    expect((await agent.api(`/api/keys/${old.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await line(old.token, 'rotate-logs')).status).toBe(401);
    await expectRefused(await line(replacement.token, 'rotate-logs', { create: '1', schedule: '0 0 * * *' }), /a key that has since been revoked/);

    expect((await hand(monitor.id, replacement.id)).status).toBe(200);
    expect((await line(replacement.token, 'rotate-logs', { create: '1', schedule: '0 0 * * *' })).status).toBe(200);
    expect(pulseCount(monitor.id)).toBe(2);
  });

  it('a monitor a line made before keys were recorded (an upgraded database): no line may claim it, an admin hands it over', async () => {
    const key = pingKey('web-06');
    await line(key.token, 'legacy-job', { create: '1', schedule: '*/5 * * * *' });
    const monitor = bySlug('legacy-job');
    // What migration 23 leaves on a monitor a line made before it.
    agent.store.db.prepare('UPDATE monitors SET line_key_id = NULL WHERE id = ?').run(monitor.id);
    const before = snapshot(monitor.id);
    await expectRefused(await line(key.token, 'legacy-job', {}, '/0'), /before Cronbeat recorded which key made each monitor/);
    expect(snapshot(monitor.id)).toEqual(before);
    expect((await hand(monitor.id, key.id)).status).toBe(200);
    expect((await line(key.token, 'legacy-job', {}, '/0')).status).toBe(200);
  });
});

describe('handing a monitor to a key: PUT /api/monitors/{id}/line-key', () => {
  it('takes only a live ping or full key of the company, from a full key; refuses a slug another monitor has', async () => {
    const key = pingKey('web-07');
    const made = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'Hand Me', timezone: 'UTC', schedule: '0 1 * * *', duration: 20 } })).json();
    const readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'wall', scope: 'read-only', now: Date.now() });
    const revoked = pingKey('gone');
    agent.store.apiTokens.revoke(revoked.id, Date.now());
    const otherCompany = agent.tokenFor(2);
    const foreignKey = agent.store.apiTokens.create({ companyId: 2, name: 'theirs', scope: 'ping', now: Date.now() });

    for (const keyId of [readOnly.id, revoked.id, foreignKey.id, 999_999]) {
      const answer = await hand(made.id, keyId);
      expect(answer.status).toBe(422);
      expect((await answer.json()).errors).toHaveProperty('key_id');
    }
    for (const keyId of ['7', 1.5, null]) expect((await hand(made.id, keyId)).status).toBe(422);
    expect((await hand(made.id, key.id, readOnly.token)).status).toBe(403);
    expect((await hand(made.id, key.id, otherCompany)).status).toBe(404);
    expect((await hand(999_999, key.id)).status).toBe(404);
    expect(agent.store.monitors.find(1, made.id)).toMatchObject({ slug: null, line_key_id: null });

    await line(key.token, 'taken', { create: '1', schedule: '@daily' });
    const twin = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'Taken', timezone: 'UTC', schedule: '0 1 * * *', duration: 20 } })).json();
    expect((await hand(twin.id, key.id)).status).toBe(409);
  });
});

describe('look-alike spellings', () => {
  it('a dashboard monitor named in fullwidth letters is not the line "db-dump"s, and the path refuses such a slug', async () => {
    const key = pingKey('web-08');
    const made = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'ｍａｉｌ-ｑｕｅｕｅ', timezone: 'UTC', schedule: '0 1 * * *', duration: 20 } })).json();
    const created = await line(key.token, 'mail-queue', { create: '1', schedule: '@hourly' });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-cronbeat-monitor-token')).not.toBe(made.token);
    expect(agent.store.monitors.find(1, made.id)).toMatchObject({ slug: null, schedule: '0 1 * * *' });
    for (const slug of ['ｍａｉｌ-ｑｕｅｕｅ', 'ﬁle-sync']) {
      const answer = await line(key.token, encodeURIComponent(slug), { create: '1', schedule: '@hourly' });
      expect(answer.status).toBe(422);
    }
  });
});
