import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { measureAlertBurst } from './alertBurst';
import { measureCliRun } from './cliRun';
import { measureDashboard, prepareDashboardData } from './dashboard';
import { closeConnections } from './httpClient';
import { measureLists } from './lists';
import { measurePulseMemory } from './memory';
import { measureReaders, prepareReaders } from './readers';
import { startAgentProcess, startBareServer, type Child } from './processes';
import { measurePulses, PULSE_MONITORS } from './pulses';
import { measureHotMonitor, measureSchedules, SCHEDULED_MONITORS } from './pulseShapes';
import { markdownTable, notMeasured, writeReport, type Figure } from './report';
import { measureReports } from './reports';
import { measureScheduler } from './scheduler';
import { measureSchedulerKinds } from './schedulerKinds';
import { seedDatabase } from './seed';
import { measureStartup } from './startup';
import { msSince, round } from './stats';

/*
 * `npm run bench`: every measurement next to its target and a baseline taken in the
 * same run, printed as a table and written to test-results/bench.json and bench.md.
 * `npm run bench -- --only 1,3` runs some sections only (4s and 4m: start-up or memory; 3l and 3r: lists or outside readers; 8: a channel report). All data is seeded in a temporary
 * folder (removed afterwards); every child gets that folder as HOME and data folder.
 */

const RESULTS_DIR = resolve(__dirname, '../../test-results');
const BIG = { monitors: 100_000, monitorsOfCompany1: 10_000, servers: 10_000, notifications: 1_000_000, certificates: 1_000 };
const SMALL = { monitors: PULSE_MONITORS, monitorsOfCompany1: PULSE_MONITORS, servers: 0, notifications: 0, scheduled: SCHEDULED_MONITORS };

type Log = (line: string) => void;

/** Runs one measurement; a failure becomes "not measured" figures with the reason, and the run goes on. */
async function attempt(figures: Figure[], log: Log, what: string, fallback: Figure[], measure: () => Promise<Figure[]>): Promise<void> {
  log(what);
  try {
    figures.push(...(await measure()));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`${what} failed: ${error instanceof Error ? error.stack : message}`);
    figures.push(...fallback.map((f) => ({ ...f, note: `failed: ${message}`.slice(0, 160) })));
  }
}

async function withAgent<T>(dataDir: string, tempRoot: string, use: (agent: Child) => Promise<T>): Promise<T> {
  const agent = await startAgentProcess(dataDir, tempRoot);
  try {
    return await use(agent);
  } finally {
    await agent.stop();
  }
}

async function runAll(only: Set<string> | null, tempRoot: string, bare: Child, log: Log): Promise<Figure[]> {
  // "4s" and "4m" pick the start-up or the memory half of measurement 4.
  const wanted = (id: string) => !only || only.has(id) || (id.length > 1 && only.has(id[0]));
  const figures: Figure[] = [];
  const smallDir = join(tempRoot, 'small');
  seedDatabase(smallDir, { ...SMALL, now: Date.now() });

  // On 1,000 monitors: pulses (1), `cronbeat run` (5), then memory over a million pulses (4).
  if (wanted('1') || wanted('5') || wanted('4m')) {
    await withAgent(smallDir, tempRoot, async (agent) => {
      let sent = 0;
      if (wanted('1')) {
        await attempt(figures, log, '1. pulse ingestion', [notMeasured('1', 'pulse ingestion', '/s', { atLeastShareOfBaseline: 0.5 }, '')], async () => {
          const outcome = await measurePulses({ agentUrl: agent.url, bareUrl: bare.url, agentCpuMs: agent.cpuMs, bareCpuMs: bare.cpuMs, dataDir: smallDir, log });
          sent = outcome.sent;
          return outcome.figures;
        });
        // After the check that every pulse answered 200 is kept: these pulses overflow the run history.
        await attempt(figures, log, '1. one monitor against many', [notMeasured('1', 'pulses/s, 50 connections, one monitor takes them all', '/s', { atLeastShareOfBaseline: 0.9 }, '')], async () => {
          const outcome = await measureHotMonitor({ agentUrl: agent.url, agentCpuMs: agent.cpuMs, log });
          sent += outcome.sent;
          return outcome.figures;
        });
        await attempt(figures, log, '1. rare schedules against frequent ones', [notMeasured('1', 'pulses/s, one client, slowest of those schedules', '/s', { atLeastShareOfBaseline: 2 / 3 }, '')], async () => {
          const outcome = await measureSchedules({ agentUrl: agent.url, agentCpuMs: agent.cpuMs, log });
          sent += outcome.sent;
          return outcome.figures;
        });
      }
      if (wanted('5')) {
        await attempt(figures, log, '5. cronbeat run -- true', [notMeasured('5', '`cronbeat run -- true` end to end', 'ms', { below: 150 }, '')], () =>
          measureCliRun(agent.url, smallDir, tempRoot),
        );
      }
      if (wanted('4m')) {
        await attempt(figures, log, '4. memory over a million pulses', [notMeasured('4', 'agent RSS after 1,000,000 pulses', 'MB', { below: 150 }, '')], () =>
          measurePulseMemory({ agentUrl: agent.url, rssMb: agent.rssMb, alreadySent: sent, log }),
        );
      }
    });
  }

  // 10,000 monitors failing at once, three channels each, while pulses keep coming.
  if (wanted('7')) {
    await attempt(figures, log, '7. alert burst', [notMeasured('7', 'alert burst', 's', { below: 30 }, '')], () =>
      measureAlertBurst({ tempRoot, dataDir: join(tempRoot, 'burst'), log }),
    );
  }

  // A channel's daily report over 10,000 monitors with a day of runs each, beside 1,000.
  if (wanted('8')) {
    await attempt(figures, log, '8. a report for 10,000 monitors', [notMeasured('8', 'daily report built for 10,000 monitors', 'ms', { below: 2000 }, '')], () =>
      measureReports(tempRoot, log),
    );
  }

  // On 100,000 monitors, 10,000 servers and 1,000,000 notifications: start-up (4), lists (3), scheduler (2).
  if (wanted('2') || wanted('3l') || wanted('3r') || wanted('4s') || wanted('6')) {
    log(`seeding ${BIG.monitors.toLocaleString('en-US')} monitors, ${BIG.servers.toLocaleString('en-US')} servers, ${BIG.notifications.toLocaleString('en-US')} notifications`);
    const bigDir = join(tempRoot, 'big');
    const { token } = seedDatabase(bigDir, { ...BIG, now: Date.now() });
    if (wanted('4s')) {
      const emptyDir = join(tempRoot, 'empty');
      seedDatabase(emptyDir, { monitors: 0, monitorsOfCompany1: 0, servers: 0, notifications: 0, now: Date.now() });
      await attempt(figures, log, '4. agent start-up', [notMeasured('4', 'agent start to listening', 'ms', { below: 1000 }, '')], () =>
        measureStartup(bigDir, emptyDir, tempRoot),
      );
    }
    // "3l" and "3r" pick the lists or the outside readers.
    if (wanted('3l')) {
      await attempt(figures, log, '3. lists', [notMeasured('3', 'lists', 'ms', undefined, '')], () =>
        withAgent(bigDir, tempRoot, (agent) => measureLists({ agentUrl: agent.url, bareUrl: bare.url, token })),
      );
    }
    if (wanted('3r')) {
      // After the lists, which are measured on untagged monitors: tags and a badge key for the outside readers.
      const badgeKey = prepareReaders(bigDir, Date.now());
      await attempt(figures, log, '3. outside readers', [notMeasured('3', 'outside readers', 'ms', undefined, '')], () =>
        withAgent(bigDir, tempRoot, (agent) => measureReaders({ agentUrl: agent.url, bareUrl: bare.url, token, badgeKey })),
      );
    }
    if (wanted('6')) {
      const emptyToken = prepareDashboardData(bigDir, Date.now());
      await attempt(figures, log, '6. dashboard in Chromium', [notMeasured('6', 'dashboard, 10,000 monitors', 'ms', undefined, '')], () =>
        withAgent(bigDir, tempRoot, (agent) => measureDashboard({ agentUrl: agent.url, token, emptyToken, log })),
      );
    }
    if (wanted('2')) {
      await attempt(figures, log, '2. scheduler', [notMeasured('2', 'scheduler', 'ms', { below: 1 }, '')], () => measureScheduler(bigDir, smallDir, log));
      await attempt(figures, log, '2. calendar events, periods and a maintenance window', [notMeasured('2', 'scheduler by schedule kind, maintenance', 'ms', undefined, '')], () =>
        measureSchedulerKinds(bigDir, log),
      );
    }
  }
  return figures;
}

function parseOnly(argv: string[]): Set<string> | null {
  const index = argv.indexOf('--only');
  return index >= 0 ? new Set(argv[index + 1].split(',')) : null;
}

async function main(): Promise<void> {
  const only = parseOnly(process.argv.slice(2));
  const startedAt = new Date();
  const start = process.hrtime.bigint();
  const log: Log = (line) => console.error(`[bench ${round(msSince(start) / 1000, 1)} s] ${line}`);
  const tempRoot = mkdtempSync(join(tmpdir(), 'cronbeat-bench-'));
  process.once('exit', () => rmSync(tempRoot, { recursive: true, force: true }));
  log(`data in ${tempRoot}`);
  let figures: Figure[];
  const bare = await startBareServer(tempRoot);
  try {
    figures = await runAll(only, tempRoot, bare, log);
  } finally {
    closeConnections();
    await bare.stop();
    rmSync(tempRoot, { recursive: true, force: true });
  }

  figures.sort((a, b) => a.section.localeCompare(b.section));
  const table = markdownTable(figures);
  const seconds = round(msSince(start) / 1000, 1);
  const machine = {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
  const summary = `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}. Whole run: ${seconds} s.`;
  console.log(`${table}\n\n${summary}`);
  writeReport(join(RESULTS_DIR, 'bench.json'), { startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), seconds, machine, figures });
  writeFileSync(join(RESULTS_DIR, 'bench.md'), `${table}\n\n${summary}\n`);
  log(`figures written to ${join(RESULTS_DIR, 'bench.json')} and bench.md`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
