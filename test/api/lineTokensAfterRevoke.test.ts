import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A job's line is told its monitor's pulse token (X-Cronbeat-Monitor-Token), so whoever holds the
 * line's key holds the tokens of its monitors too: a stolen crontab's key revoked, the thief could
 * still send those monitors successes by token and keep them green for ever. So the monitors a
 * key's lines hold get new tokens when the key is revoked, and a monitor handed from one key's
 * line to another's gets one too; the new key's line learns it from its next pulse.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const pingKey = (name: string) => agent.store.apiTokens.create({ companyId: 1, name, scope: 'ping', now: Date.now() });
const line = (key: string, slug: string, query: Record<string, string> = {}) => fetch(`${agent.url}/api/pulse/key/${key}/${slug}?${new URLSearchParams(query)}`);
const hand = (monitorId: number, keyId: number) => agent.api(`/api/monitors/${monitorId}/line-key`, { method: 'PUT', json: { key_id: keyId } });
const tokenOf = (id: number) => agent.store.monitors.find(1, id)!.token;

async function madeByLine(key: string, slug: string): Promise<{ id: number; token: string }> {
  const made = await line(key, slug, { create: '1', schedule: '0 3 * * *' });
  expect(made.status).toBe(201);
  const token = made.headers.get('x-cronbeat-monitor-token')!;
  return { id: agent.store.monitors.list(1).find((m) => m.slug === slug)!.id, token };
}

describe("a revoked key's monitors", () => {
  it('get new pulse tokens: the one its line was told is refused; the key it is handed to learns the new one', async () => {
    const stolen = pingKey('stolen crontab');
    const monitor = await madeByLine(stolen.token, 'db-dump');
    const other = await madeByLine(pingKey('web-02').token, 'web-job');

    const revoked = await agent.api(`/api/keys/${stolen.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(204);

    for (const path of [`/api/pulse/${monitor.token}`, `/api/pulse/${monitor.token}/0`]) expect((await fetch(agent.url + path)).status, path).toBe(404);
    expect(tokenOf(monitor.id)).not.toBe(monitor.token);
    expect(agent.store.pulses.count(monitor.id)).toBe(1);
    const [change] = await (await agent.api(`/api/monitors/${monitor.id}/changes`)).json();
    expect(change).toMatchObject({ source: 'api', changes: { token: { from: 'old', to: 'new' } } });
    // Another key's monitor keeps its token.
    expect(tokenOf(other.id)).toBe(other.token);
    expect((await fetch(`${agent.url}/api/pulse/${other.token}`)).status).toBe(200);

    // The crontab gets a new key, and the admin hands the monitor to it: its line is told the new token.
    const successor = pingKey('new crontab');
    expect((await hand(monitor.id, successor.id)).status).toBe(200);
    const next = await line(successor.token, 'db-dump');
    expect(next.status).toBe(200);
    expect(next.headers.get('x-cronbeat-monitor-token')).toBe(tokenOf(monitor.id));
  });

  it('a monitor handed from one key to another gets a new token; one made in the dashboard keeps its own', async () => {
    const first = pingKey('old server');
    const monitor = await madeByLine(first.token, 'backups');
    const second = pingKey('new server');
    expect((await hand(monitor.id, second.id)).status).toBe(200);
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}`)).status).toBe(404);
    expect(tokenOf(monitor.id)).not.toBe(monitor.token);
    const [change] = await (await agent.api(`/api/monitors/${monitor.id}/changes`)).json();
    expect(change.changes).toEqual({ line_key_id: { from: first.id, to: second.id }, token: { from: 'old', to: 'new' } });
    // Handing it again to the key that has it changes nothing.
    const token = tokenOf(monitor.id);
    expect((await hand(monitor.id, second.id)).status).toBe(200);
    expect(tokenOf(monitor.id)).toBe(token);

    // A monitor made in the dashboard may be pinged by its token from crontab lines: handing it to a line keeps it.
    const dashboard = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'Nightly report', timezone: 'UTC', schedule: '0 4 * * *', duration: 5 } })).json();
    expect((await hand(dashboard.id, second.id)).status).toBe(200);
    expect(tokenOf(dashboard.id)).toBe(dashboard.token);
    expect((await fetch(`${agent.url}/api/pulse/${dashboard.token}`)).status).toBe(200);
  });
});
