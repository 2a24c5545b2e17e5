import { runLoad } from './load';
import type { LoadResult } from './loadWorker';
import { PULSE_MONITORS } from './pulses';
import { figure, type Figure } from './report';
import { median, round } from './stats';

/*
 * Measurement 1, the shapes of load that should not matter: one monitor taking every pulse
 * against the same load over 100 monitors, and rare schedules against frequent ones. The sides
 * take turns, in the order A B B A A B B A… so a machine whose load drifts during the run
 * favours neither; the rate of each is the median of its rounds.
 */

/** Monitors on these schedules (in SCHEDULE_ZONE) are seeded after the PULSE_MONITORS others. */
// The last two: a systemd calendar event (OnCalendar=) and a period, which must cost a pulse no more than cron.
export const SCHEDULES = ['* * * * *', '0 3 * * *', '0 0 1 1 *', '0 0 29 2 *', '30 2 * * *', 'Mon..Fri *-*-* 02:30:00', '@every 90m'];
export const SCHEDULE_ZONE = 'America/New_York';
export const SCHEDULED_MONITORS = SCHEDULES.map((schedule) => ({ schedule, timezone: SCHEDULE_ZONE }));

const ROUNDS = 4;
const HOT_SECONDS = 3;
const SCHEDULE_SECONDS = 2;
const SPREAD_OVER = 100;
/**
 * Monitors the other measurements pulse rarely, so their histories fill with this measurement's
 * own pulses (and `cronbeat run`, on monitor 1, still sees each of its pulses kept).
 */
const SPREAD_FROM = 101;
const HOT_MONITOR = PULSE_MONITORS;

interface ShapeContext {
  agentUrl: string;
  /** CPU time the agent has used so far, in ms. */
  agentCpuMs(): number;
  log(line: string): void;
}

export interface ShapeOutcome {
  figures: Figure[];
  sent: number;
}

interface Measured extends LoadResult {
  /** The agent's CPU time per pulse, in µs. */
  cpuUs: number;
}

/** Runs every job once per round, forwards in even rounds and backwards in odd ones; each job's results over the rounds. */
async function alternate(agentCpuMs: () => number, jobs: Array<() => Promise<LoadResult>>, rounds: number): Promise<Measured[][]> {
  const results = jobs.map((): Measured[] => []);
  for (let round = 0; round < rounds; round++) {
    const order = [...jobs.keys()];
    if (round % 2 === 1) order.reverse();
    for (const index of order) {
      const before = agentCpuMs();
      const result = await jobs[index]();
      results[index].push({ ...result, cpuUs: ((agentCpuMs() - before) * 1000) / result.sent });
    }
  }
  return results;
}

const rate = (results: LoadResult[]) => median(results.map((r) => r.perSecond));
const cpu = (results: Measured[]) => Math.round(median(results.map((r) => r.cpuUs)));
const failures = (results: LoadResult[]) => results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
const sentBy = (all: LoadResult[][]) => all.flat().reduce((sum, r) => sum + r.sent, 0);

/**
 * A single monitor taking all pulses at 50 connections against the same load over 100
 * monitors. The hot monitor first gets more pulses than its run history keeps, so every pulse
 * measured also drops its oldest one.
 */
export async function measureHotMonitor({ agentUrl, agentCpuMs, log }: ShapeContext): Promise<ShapeOutcome> {
  const warm = await runLoad({ url: agentUrl, monitors: 1, firstMonitor: HOT_MONITOR, connections: 50, amount: 3_000 });
  const [spread, hot] = await alternate(
    agentCpuMs,
    [
      () => runLoad({ url: agentUrl, monitors: SPREAD_OVER, firstMonitor: SPREAD_FROM, connections: 50, seconds: HOT_SECONDS }),
      () => runLoad({ url: agentUrl, monitors: 1, firstMonitor: HOT_MONITOR, connections: 50, seconds: HOT_SECONDS }),
    ],
    ROUNDS,
  );
  log(`one monitor: ${hot.map((r) => Math.round(r.perSecond)).join(', ')}/s; over ${SPREAD_OVER}: ${spread.map((r) => Math.round(r.perSecond)).join(', ')}/s`);
  const notOk = failures(hot) + failures(spread);
  return {
    sent: warm.sent + sentBy([spread, hot]),
    figures: [
      figure({
        section: '1',
        name: 'pulses/s, 50 connections, one monitor takes them all',
        value: Math.round(rate(hot)),
        unit: '/s',
        target: { atLeastShareOfBaseline: 0.9 },
        baseline: { name: `same load over ${SPREAD_OVER} monitors`, value: Math.round(rate(spread)) },
        note: `${round((rate(hot) / rate(spread)) * 100, 0)}%; median of ${ROUNDS} alternating rounds of ${HOT_SECONDS} s; agent CPU per pulse ${cpu(hot)} µs (over ${SPREAD_OVER}: ${cpu(spread)} µs)${notOk ? `; ${notOk} not 200` : ''}`,
      }),
    ],
  };
}

/**
 * One client (one connection) pulsing a monitor of each of SCHEDULES in turn: the slowest rate
 * against the fastest, and each schedule's own rate.
 */
export async function measureSchedules({ agentUrl, agentCpuMs, log }: ShapeContext): Promise<ShapeOutcome> {
  const results = await alternate(
    agentCpuMs,
    SCHEDULES.map((_, index) => () => runLoad({ url: agentUrl, monitors: 1, firstMonitor: PULSE_MONITORS + index + 1, connections: 1, seconds: SCHEDULE_SECONDS })),
    ROUNDS,
  );
  const rates = results.map(rate);
  log(`one client by schedule: ${SCHEDULES.map((s, i) => `${s} ${Math.round(rates[i])}/s`).join('; ')}`);
  const fastest = rates.indexOf(Math.max(...rates));
  const slowest = rates.indexOf(Math.min(...rates));
  const notOk = results.reduce((sum, r) => sum + failures(r), 0);
  return {
    sent: sentBy(results),
    figures: [
      ...SCHEDULES.map((schedule, index) =>
        figure({
          section: '1',
          name: `pulses/s, one client, \`${schedule}\` ${SCHEDULE_ZONE}`,
          value: Math.round(rates[index]),
          unit: '/s',
          note: `median of ${ROUNDS} rounds of ${SCHEDULE_SECONDS} s; agent CPU per pulse ${cpu(results[index])} µs${failures(results[index]) ? `; ${failures(results[index])} not 200` : ''}`,
        }),
      ),
      figure({
        section: '1',
        name: 'pulses/s, one client, slowest of those schedules',
        value: Math.round(rates[slowest]),
        unit: '/s',
        target: { atLeastShareOfBaseline: 2 / 3 },
        baseline: { name: `fastest (\`${SCHEDULES[fastest]}\`)`, value: Math.round(rates[fastest]) },
        note: `\`${SCHEDULES[slowest]}\`, ${round((rates[slowest] / rates[fastest]) * 100, 0)}% of the fastest${notOk ? `; ${notOk} not 200` : ''}`,
      }),
    ],
  };
}
