import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { firstDamage } from '../../agent/db/integrity';
import { figure, type Figure } from './report';
import { startAgentProcess } from './processes';
import { get } from './httpClient';
import { median, round } from './stats';
import { monitorToken } from './tokens';

const RUNS = 3;
const DOWNTIME_MS = 3 * 3_600_000;

/**
 * Moves every monitor's timing `ms` into the past, as if the agent had been off that long
 * (the laptop was shut): at the next start every monitor is overdue and gets a resume grace.
 */
function pretendOff(dataDir: string, ms: number): void {
  const db = new Database(databaseFile(dataDir));
  try {
    db.prepare(
      `UPDATE monitors SET due_at = due_at - @ms, expected_run_at = expected_run_at - @ms, grace_from = grace_from - @ms,
         running_since = running_since - @ms
       WHERE due_at IS NOT NULL`,
    ).run({ ms });
  } finally {
    db.close();
  }
}

/**
 * Starts `cronbeat serve` RUNS times over `dataDir`: the start times (spawn to listening line), the
 * times to the first pulse recorded (a pulse sent as soon as it listens waits for the integrity
 * check and the catch-up graces: the moment the agent writes), and the last RSS.
 */
async function startTimes(dataDir: string, tempRoot: string, before?: () => void): Promise<{ times: number[]; writing: number[]; rssMb: number }> {
  const times: number[] = [];
  const writing: number[] = [];
  let rssMb = NaN;
  for (let i = 0; i < RUNS; i++) {
    before?.();
    const agent = await startAgentProcess(dataDir, tempRoot);
    times.push(agent.startMs);
    const pulse = await get(`${agent.url}/api/pulse/${monitorToken(1)}`);
    // On the empty database the token is unknown: its 404 came after the hold too.
    if (pulse.status !== 503) writing.push(agent.startMs + pulse.ms);
    rssMb = agent.rssMb();
    await agent.stop();
  }
  return { times, writing, rssMb };
}

/** The integrity check every start runs (agent/db/integrity.ts), alone, RUNS times over `dataDir`'s database. */
function integrityCheckTimes(dataDir: string): number[] {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const db = new Database(databaseFile(dataDir), { readonly: true });
    try {
      const started = performance.now();
      if (firstDamage(db) !== null) throw new Error('the seeded database is damaged');
      times.push(performance.now() - started);
    } finally {
      db.close();
    }
  }
  return times;
}

/**
 * Measurement 4, start-up: from spawning `cronbeat serve` to its "listening" line, over the
 * seeded database (100,000 monitors, 1,000,000 notifications), next to the same over an empty one.
 */
export async function measureStartup(bigDataDir: string, emptyDataDir: string, tempRoot: string): Promise<Figure[]> {
  const empty = await startTimes(emptyDataDir, tempRoot);
  const big = await startTimes(bigDataDir, tempRoot);
  const afterDowntime = await startTimes(bigDataDir, tempRoot, () => pretendOff(bigDataDir, DOWNTIME_MS));
  const check = integrityCheckTimes(bigDataDir);
  const checkEmpty = integrityCheckTimes(emptyDataDir);
  const megabytes = statSync(databaseFile(bigDataDir)).size / 1024 ** 2;
  return [
    figure({
      section: '4',
      name: 'agent start to listening, 100,000 monitors + 1,000,000 notifications',
      value: round(median(big.times), 1),
      unit: 'ms',
      target: { below: 1000 },
      baseline: { name: 'empty database', value: round(median(empty.times), 1) },
      note: `median of ${RUNS}, process spawn included`,
    }),
    figure({
      section: '4',
      name: 'the same start after 3 hours off (every monitor overdue, each gets a grace)',
      value: round(median(afterDowntime.times), 1),
      unit: 'ms',
      target: { below: 1000 },
      baseline: { name: 'empty database', value: round(median(empty.times), 1) },
      note: `median of ${RUNS}; it answers reads from then on`,
    }),
    figure({
      section: '4',
      name: 'the same start to the first pulse recorded (integrity check passed, catch-up graces given)',
      value: round(median(afterDowntime.writing), 1),
      unit: 'ms',
      baseline: { name: 'empty database', value: round(median(empty.writing), 1) },
      note: `median of ${RUNS}; writes wait for the check`,
    }),
    figure({
      section: '4',
      name: `of which the integrity check of every page (quick_check, memory-mapped), ${Math.round(megabytes).toLocaleString('en-US')} MB database`,
      value: round(median(check), 1),
      unit: 'ms',
      baseline: { name: 'empty database', value: round(median(checkEmpty), 1) },
      note: `median of ${RUNS}, the file in the OS cache as after the starts above`,
    }),
    figure({
      section: '4',
      name: 'agent RSS right after start, same data',
      value: round(big.rssMb, 1),
      unit: 'MB',
      baseline: { name: 'empty database', value: round(empty.rssMb, 1) },
    }),
  ];
}
