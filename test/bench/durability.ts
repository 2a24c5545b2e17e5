import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { startAgent } from '../../agent/agent';

/*
 * `npx tsx test/bench/durability.ts [seconds]`: pulses per second and mean latency with
 * SQLite's synchronous setting at NORMAL (what the agent uses, in WAL mode) and at FULL, over
 * real HTTP from 1 and from 32 concurrent clients, on a database file on this machine's disk.
 * Prints one line per setting and client count, each measured twice, alternating.
 */

const seconds = Number(process.argv[2] ?? 5);

async function measure(synchronous: 'NORMAL' | 'FULL', CLIENTS: number): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cronbeat-durability-'));
  const agent = await startAgent({ dataDir, port: 0, log: () => {} });
  agent.store.db.pragma(`synchronous = ${synchronous}`);
  const token = agent.store.apiTokens.create({ companyId: 1, name: 'bench', now: Date.now() }).token;
  const tokens: string[] = [];
  for (let i = 0; i < 100; i++) {
    const response = await fetch(`${agent.url}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `m${i}`, timezone: 'UTC', schedule: '* * * * *', duration: 5 }),
    });
    tokens.push((await response.json()).token);
  }
  const keepAlive = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const pulse = (monitorToken: string) =>
    new Promise<void>((resolve, reject) => {
      request(`${agent.url}/api/pulse/${monitorToken}`, { method: 'POST', agent: keepAlive }, (response) => {
        response.resume().on('end', resolve);
      })
        .on('error', reject)
        .end('job output');
    });
  let done = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      while (Date.now() < until) {
        await pulse(tokens[(client * 7 + done) % tokens.length]);
        done++;
      }
    }),
  );
  keepAlive.destroy();
  await agent.close();
  rmSync(dataDir, { recursive: true, force: true });
  return done / seconds;
}

async function main() {
  for (const clients of [1, 32]) {
    for (const setting of ['NORMAL', 'FULL', 'NORMAL', 'FULL'] as const) {
      const rate = await measure(setting, clients);
      console.log(`synchronous=${setting}, ${clients} client(s): ${Math.round(rate)} pulses/s, ${((1000 * clients) / rate).toFixed(2)} ms per pulse`);
    }
  }
}

void main();
