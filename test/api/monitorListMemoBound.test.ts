import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { seedVariedMonitors } from '../helpers/variedMonitors';
import { MONITOR_LIST_MEMO_BYTES } from '../../agent/api/present/monitorJsonMemo';
import { presentMonitor } from '../../agent/api/present/present';

/*
 * GET /api/monitors keeps a full key's answers (agent/api/present/monitorJsonMemo.ts), and each
 * answer's pulse_url holds the origin, which a client chooses: behind --trust-proxy, X-Forwarded-Host
 * (Host itself is held to this machine's names by the host guard). A 15 KB host made the memo keep
 * 15 KB a monitor, and a company's answers were kept for good: four companies listed once each
 * through such a host held about 70 MB. Whatever is asked, the memo holds at most
 * MONITOR_LIST_MEMO_BYTES, and every answer is still each monitor's own.
 */

const COMPANIES = [1, 2, 3, 4];
const MONITORS = 1_100;
const SEEDED_AT = Date.parse('2026-11-25T10:00:00Z');
/** Node refuses a request head past 16 KB: nearly all of it is the host. */
const LONG = 15_000;

let agent: TestAgent;
const tokens = new Map<number, string>();

beforeAll(async () => {
  // The clock stands still where the monitors were made: the loop changes none of them between two lists.
  agent = await startTestAgent({ trustProxy: true, clock: () => SEEDED_AT });
  for (const companyId of COMPANIES) {
    seedVariedMonitors(agent.store, MONITORS, companyId, SEEDED_AT);
    tokens.set(companyId, companyId === 1 ? agent.token : agent.tokenFor(companyId));
  }
}, 60_000);
afterAll(() => agent.stop());

const collect: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();
/**
 * The Buffers the process holds (the kept answers are Buffers), collected until the figure stops
 * falling: V8 frees a Buffer's memory after the collection that finds it dead, on another thread,
 * and the server lets go of the last answer's bytes only once its socket said they were written.
 */
async function heldBuffers(): Promise<number> {
  let held = Infinity;
  for (let i = 0; i < 20; i++) {
    collect();
    await new Promise(setImmediate);
    const now = process.memoryUsage().arrayBuffers;
    if (now >= held) return held;
    held = now;
  }
  return held;
}

function list(companyId: number, forwardedHost?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${tokens.get(companyId)}`, ...(forwardedHost === undefined ? {} : { 'X-Forwarded-Host': forwardedHost }) };
    request(`${agent.url}/api/monitors`, { headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => {
        if (response.statusCode === 200) resolve(text);
        else reject(new Error(`${response.statusCode}: ${text.slice(0, 200)}`));
      });
    })
      .on('error', reject)
      .end();
  });
}

/** The list as made afresh: each live monitor presented for the origin, as GET /api/monitors/{id} makes it, nothing kept. */
function unmemoized(companyId: number, origin: string): string {
  const monitors = agent.store.monitors.list(companyId);
  return JSON.stringify(monitors.map((monitor) => presentMonitor(monitor, origin, agent.store.channelRoutes.channelIds({ type: 'monitor', id: monitor.id }))));
}

const hostOf = (companyId: number) => `company-${companyId}.${'x'.repeat(LONG)}.example`;

describe('GET /api/monitors through many long hosts', () => {
  it('keeps at most MONITOR_LIST_MEMO_BYTES, and answers every origin its own bytes', async () => {
    const before = await heldBuffers();
    for (const companyId of COMPANIES) {
      const expected = unmemoized(companyId, `http://${hostOf(companyId)}`);
      expect(expected.length).toBeGreaterThan(MONITORS * LONG);
      // Listed three times: kept, then serialised on its own to be kept, then answered from what was kept (room allowing).
      for (let i = 0; i < 3; i++) expect((await list(companyId, hostOf(companyId))) === expected, `company ${companyId}, listing ${i + 1}`).toBe(true);
    }
    const held = (await heldBuffers()) - before;
    // Kept without a bound: 4 × 1,100 × 15 KB (65.8 MiB measured). A quarter over the bound is margin for what else the process holds.
    expect(held, `${(held / 2 ** 20).toFixed(1)} MiB held`).toBeLessThan(MONITOR_LIST_MEMO_BYTES * 1.25);

    // The companies listed longest ago were forgotten: listed again, their answers are still their own.
    const plain = `http://127.0.0.1:${new URL(agent.url).port}`;
    for (const companyId of COMPANIES) {
      expect((await list(companyId, hostOf(companyId))) === unmemoized(companyId, `http://${hostOf(companyId)}`), `company ${companyId} again`).toBe(true);
      expect((await list(companyId)) === unmemoized(companyId, plain), `company ${companyId} through its own host`).toBe(true);
    }
    expect((await heldBuffers()) - before).toBeLessThan(MONITOR_LIST_MEMO_BYTES * 1.25);
  }, 60_000);
});
