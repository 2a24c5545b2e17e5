import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startAgent } from '../../agent/agent';
import { mayWrite } from '../../agent/api/http/holdWrites';
import { startTestAgent, tempDir } from '../helpers/testAgent';

/*
 * After three hours off, the agent listens at once and answers reads while it checks
 * its database; nothing is written (no monitor failed, no pulse recorded, no grace given) until the
 * check has passed, and a pulse sent meanwhile is recorded right after it, counted against the
 * catch-up grace every overdue monitor gets.
 */

const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const HOUR = 3_600_000;

describe('a start that checks the database while listening', () => {
  it('answers reads at once, holds writes until the check passed, then graces overdue monitors before the held pulse', async () => {
    let now = Date.parse('2026-11-25T10:00:30Z');
    const first = await startTestAgent({ dataDir, clock: () => now });
    const created = await (
      await first.api('/api/monitors', { method: 'POST', json: { name: 'hourly', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })
    ).json();
    const other = await (
      await first.api('/api/monitors', { method: 'POST', json: { name: 'other', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })
    ).json();
    await fetch(`${first.url}/api/pulse/${created.token}`);
    await fetch(`${first.url}/api/pulse/${other.token}`);
    const token = first.token;
    await first.close(); // not stop(): the folder is reused below

    now += 3 * HOUR; // the laptop was shut: every monitor is overdue
    const agent = await startAgent({ dataDir, port: 0, log: () => {}, clock: () => now, checkWhileListening: true });
    try {
      // Returned before the check (it answers from a worker thread): the connection refuses writes.
      expect(agent.store.db.pragma('query_only', { simple: true })).toBe(1);
      expect(() => agent.store.db.prepare("UPDATE monitors SET name = 'x'").run()).toThrow(/readonly/i);
      let readyAt = 0;
      void agent.ready.then(() => (readyAt = performance.now()));

      const headers = { Authorization: `Bearer ${token}` };
      const read = fetch(`${agent.url}/api/monitors/${created.id}`, { headers });
      const pulse = fetch(`${agent.url}/api/pulse/${created.token}`).then((r) => ({ status: r.status, at: performance.now() }));
      expect((await read).status).toBe(200);
      const pulsed = await pulse;
      expect(pulsed.status).toBe(200);
      expect(readyAt, 'the pulse was answered after the check passed').toBeGreaterThan(0);
      expect(pulsed.at).toBeGreaterThanOrEqual(readyAt);
      expect(agent.store.db.pragma('query_only', { simple: true })).toBe(0);

      // Neither monitor failed for the hours the agent was off: the other one got a catch-up grace.
      const list = (await (await fetch(`${agent.url}/api/monitors`, { headers })).json()) as { id: number; is_alerted: number; status: string }[];
      expect(list.map((m) => m.is_alerted)).toEqual([0, 0]);
      const graced = agent.store.monitors.find(1, other.id)!;
      expect(graced.due_at).toBeGreaterThan(now);
      expect(agent.store.pulses.page(created.id, 10, 0)).toHaveLength(2);
    } finally {
      await agent.close();
    }
  });

  it('holds every method but GET and HEAD, and every pulse', () => {
    expect(mayWrite('GET', '/api/monitors')).toBe(false);
    expect(mayWrite('HEAD', '/api/events')).toBe(false);
    expect(mayWrite('GET', '/api/pulse/abc')).toBe(true);
    expect(mayWrite('HEAD', '/api/pulse/abc/start')).toBe(true);
    expect(mayWrite('POST', '/api/session')).toBe(true);
    expect(mayWrite('DELETE', '/api/monitors/1')).toBe(true);
  });
});
