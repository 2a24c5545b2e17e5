import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startAgent } from '../../agent/agent';
import { nextRunAfter, previousRunBefore } from '../../agent/domain/schedules/cronSchedule';
import { defaultGraceMinutes } from '../../agent/domain/monitors/dueTime';
import { checkSchedule } from '../../agent/domain/schedules';
import { median, quantile, round } from './stats';

const roundTo = round;

/*
 * `npx tsx test/bench/rareSchedules.ts`: what a schedule whose runs are years apart costs the
 * agent's one thread. Per schedule, the median and worst of each step (check, default grace, next
 * and last run from many moments, in a zone with daylight saving); then 32 job lines creating such
 * monitors at once over real HTTP, with the longest the event loop was held meanwhile (these used
 * to freeze the agent for 30 s: 1 s and 3.5 s per create).
 */

const SCHEDULES = ['0 0 29 2 *', '0 0 * 2 1#5', '0 0 29 2 1#5', '30 2 31 12 5#5', '0 3 * * *', '*/5 * * * *'];
const ZONE = 'America/New_York';
const START = Date.parse('2026-11-27T14:00:00Z');

function timed(step: (i: number) => unknown, runs = 200): string {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const began = performance.now();
    step(i);
    ms.push(performance.now() - began);
  }
  return `median ${round(median(ms), 3)} ms, p99 ${round(quantile(ms, 0.99), 2)} ms, max ${round(Math.max(...ms), 2)} ms`;
}

for (const schedule of SCHEDULES) {
  // A moment per run, far apart, so no remembered answer is reused.
  const at = (i: number) => START + i * 9_876_543_211;
  console.log(`${schedule.padEnd(16)} check        ${timed(() => checkSchedule(schedule))}`);
  console.log(`${''.padEnd(16)} grace        ${timed((i) => defaultGraceMinutes(schedule, at(i)))}`);
  console.log(`${''.padEnd(16)} next run     ${timed((i) => nextRunAfter(schedule, ZONE, at(i)))}`);
  console.log(`${''.padEnd(16)} last run     ${timed((i) => previousRunBefore(schedule, ZONE, at(i)))}`);
}

async function concurrentCreates(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cronbeat-rare-'));
  const agent = await startAgent({ dataDir, port: 0, log: () => {} });
  try {
    // Two rounds, each key making 16 (under its 30 a minute): the first warms the agent up, the second is measured.
    for (const round of ['warm-up', 'measured']) {
      const keys = [1, 2].map((n) => agent.store.apiTokens.create({ companyId: 1, name: `bench ${round} ${n}`, scope: 'ping', now: Date.now() }).token);
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      const began = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 32 }, (_, i) => {
          const query = new URLSearchParams({ create: '1', schedule: i % 2 ? '0 0 29 2 *' : '0 0 * 2 1#5', tz: ZONE });
          return fetch(`${agent.url}/api/pulse/key/${keys[i % 2]}/${round}-${i}?${query}`).then((r) => r.status);
        }),
      );
      delay.disable();
      const took = roundTo(performance.now() - began, 1);
      console.log(
        `32 line creates at once (${round}): ${answers.filter((s) => s === 201).length} created in ${took} ms, ` +
          `event loop held at most ${roundTo(delay.max / 1e6, 1)} ms`,
      );
    }
  } finally {
    await agent.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void concurrentCreates();
