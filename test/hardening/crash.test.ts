import { Agent, request } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli';
import { tempDir } from '../helpers/testAgent';

/*
 * Nothing lost when it crashes: 5,000 pulses from concurrent clients, the agent killed with
 * SIGKILL half-way, then started again. Every pulse answered 200 is in the run history, and
 * every monitor agrees with its pulses (no monitor half-updated).
 */

const PULSES = 5_000;
const CLIENTS = 32;
const MONITORS = 20;

let serving: ServeProcess | undefined;
afterEach(async () => {
  await serving?.stop();
  serving = undefined;
});

describe('a crash in the middle of 5,000 pulses', () => {
  it('loses no answered pulse and leaves no monitor half-updated', async () => {
    const dir = tempDir();
    const token = (await runCli(['token', 'create', '--data-dir', dir])).stdout.trim();
    serving = await startServe(['--data-dir', dir, '--no-popups']);
    const { url, child } = serving;
    const monitors: Array<{ id: number; token: string }> = [];
    for (let i = 0; i < MONITORS; i++) {
      const response = await fetch(`${url}/api/monitors`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `job ${i}`, timezone: 'UTC', schedule: '* * * * *', duration: 60 }),
      });
      monitors.push(await response.json());
    }

    const keepAlive = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const answered = new Set<string>();
    let next = 0;
    let killedAfter = -1;
    const send = (n: number) =>
      new Promise<void>((resolve) => {
        const body = `pulse ${n}`;
        const req = request(`${url}/api/pulse/${monitors[n % MONITORS].token}`, { method: 'POST', agent: keepAlive }, (response) => {
          response.resume().on('end', () => {
            if (response.statusCode === 200) answered.add(body);
            if (answered.size === PULSES / 2 && killedAfter < 0) {
              killedAfter = answered.size;
              child.kill('SIGKILL');
            }
            resolve();
          });
          response.on('error', () => resolve());
        });
        req.on('error', () => resolve()); // refused or cut by the kill: not answered
        req.end(body);
      });
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < PULSES) await send(next++);
      }),
    );
    keepAlive.destroy();
    expect(killedAfter).toBe(PULSES / 2);
    expect(answered.size).toBeLessThan(PULSES); // the kill really came mid-way
    await serving.stop(); // already dead; collects the exit

    serving = await startServe(['--data-dir', dir, '--no-popups']);
    const db = new Database(join(dir, 'cronbeat.db'), { readonly: true });
    try {
      const stored = new Set(db.prepare('SELECT body FROM pulses').pluck().all() as string[]);
      const lost = [...answered].filter((body) => !stored.has(body));
      expect(lost).toEqual([]);
      expect(stored.size).toBeGreaterThanOrEqual(answered.size);

      const rows = db
        .prepare(
          `SELECT m.id, m.last_run_at, m.updated_at, m.is_alerted, m.due_at, max(p.received_at) AS last_pulse, count(p.id) AS pulses
           FROM monitors m LEFT JOIN pulses p ON p.monitor_id = m.id GROUP BY m.id`,
        )
        .all() as Array<{ id: number; last_run_at: number; updated_at: number; is_alerted: number; due_at: number | null; last_pulse: number; pulses: number }>;
      expect(rows).toHaveLength(MONITORS);
      for (const row of rows) {
        expect(row.pulses, `monitor ${row.id}`).toBeGreaterThan(0);
        expect(row.last_run_at, `monitor ${row.id}`).toBe(row.last_pulse);
        expect(row.updated_at, `monitor ${row.id}`).toBe(row.last_pulse);
        expect(row.is_alerted).toBe(0);
        expect(row.due_at).not.toBeNull();
      }
    } finally {
      db.close();
    }
    // And the restarted agent serves the history it kept.
    const history = await fetch(`${serving.url}/api/monitors/${monitors[0].id}/pulses?per_page=1`, { headers: { Authorization: `Bearer ${token}` } });
    expect(history.status).toBe(200);
    expect((await history.json()).total).toBeGreaterThan(0);
  }, 60_000);
});
