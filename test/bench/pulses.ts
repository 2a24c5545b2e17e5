import Database from 'better-sqlite3';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { runLoad } from './load';
import type { LoadResult } from './loadWorker';
import { figure, type Figure } from './report';
import { round } from './stats';

export const PULSE_MONITORS = 1000;
/** Pulses per level; enough for a stable rate, few enough to keep the run short. */
const LEVELS = [
  { connections: 1, amount: 5_000 },
  { connections: 10, amount: 20_000 },
  { connections: 50, amount: 30_000 },
];

export interface PulseContext {
  agentUrl: string;
  bareUrl: string;
  /** CPU time the agent and the bare server have used so far, in ms. */
  agentCpuMs(): number;
  bareCpuMs(): number;
  dataDir: string;
  log(line: string): void;
}

export interface PulseOutcome {
  figures: Figure[];
  /** Pulses sent to the agent, warm-up included. */
  sent: number;
}

/**
 * Measurement 1: pulses over loopback from a separate process at 1, 10 and 50 connections over
 * PULSE_MONITORS monitors, each level next to the bare node:http server under the same load;
 * then every pulse answered 200 must be in the run history.
 */
export async function measurePulses({ agentUrl, bareUrl, agentCpuMs, bareCpuMs, dataDir, log }: PulseContext): Promise<PulseOutcome> {
  const load = (url: string, connections: number, amount: number) => runLoad({ url, monitors: PULSE_MONITORS, connections, amount });
  // CPU time per request of a load run on a server: unlike its rate, barely moved by the machine's other work.
  const timedLoad = async (url: string, cpuMs: () => number, connections: number, amount: number) => {
    const before = cpuMs();
    const result = await load(url, connections, amount);
    return { ...result, cpuUs: ((cpuMs() - before) * 1000) / result.sent };
  };
  // Warm-up: JIT, SQLite page cache, connection set-up.
  const warm = await load(agentUrl, 10, 5_000);
  await load(bareUrl, 10, 5_000);
  let ok = warm.ok;
  let sent = warm.sent;
  const figures: Figure[] = [];
  for (const { connections, amount } of LEVELS) {
    const bare = await timedLoad(bareUrl, bareCpuMs, connections, amount);
    const agent = await timedLoad(agentUrl, agentCpuMs, connections, amount);
    ok += agent.ok;
    sent += agent.sent;
    log(`${connections} connections: agent ${describe(agent)}; bare ${describe(bare)}`);
    const failures = agent.non2xx + agent.errors;
    figures.push(
      figure({
        section: '1',
        name: `pulses/s, ${connections} connection${connections > 1 ? 's' : ''}`,
        value: Math.round(agent.perSecond),
        unit: '/s',
        target: connections === 50 ? { atLeastShareOfBaseline: 0.5 } : undefined,
        baseline: { name: 'bare node:http', value: Math.round(bare.perSecond) },
        note: `${round((agent.perSecond / bare.perSecond) * 100, 0)}% of bare; ${amount.toLocaleString('en-US')} pulses${failures ? `; ${failures} not 200` : ''}`,
      }),
      figure({
        section: '1',
        name: `pulse latency p99, ${connections} connection${connections > 1 ? 's' : ''}`,
        value: round(agent.p99Ms),
        unit: 'ms',
        // At 50 connections the bare server's own p99 says whether the machine leaves room for 10 ms.
        target: connections === 50 ? { below: 10, whenBaselineBelow: 5 } : { below: 10 },
        baseline: { name: 'bare node:http', value: round(bare.p99Ms) },
        note: `p50 ${round(agent.p50Ms)} ms (bare ${round(bare.p50Ms)} ms)`,
      }),
    );
    if (connections === 50) figures.push(cpuFigure(agent.cpuUs, bare.cpuUs));
  }
  const stored = storedPulses(dataDir);
  figures.push(
    figure({
      section: '1',
      name: 'pulses answered 200 but missing from the run history',
      value: Math.max(0, ok - stored),
      unit: '',
      target: { equals: 0 },
      note: `${ok.toLocaleString('en-US')} answered 200, ${stored.toLocaleString('en-US')} stored`,
    }),
  );
  return { figures, sent };
}

/** What a pulse costs the agent's CPU at 50 connections, against a bare request. */
function cpuFigure(agentUs: number, bareUs: number): Figure {
  return figure({
    section: '1',
    name: 'agent CPU time per pulse, 50 connections',
    value: Math.round(agentUs),
    unit: 'µs',
    target: { atMostTimesBaseline: 1.5 },
    baseline: { name: 'bare node:http per request', value: Math.round(bareUs) },
    note: `${round(agentUs / bareUs, 1)}× bare; user + system time from /proc, which the machine's other work moves little`,
  });
}

function describe(result: LoadResult): string {
  return `${Math.round(result.perSecond)}/s p50 ${round(result.p50Ms)} ms p99 ${round(result.p99Ms)} ms${result.non2xx ? `, ${result.non2xx} non-2xx` : ''}`;
}

/** Rows in the run history, read from the agent's database while it runs (WAL lets a reader in). */
export function storedPulses(dataDir: string): number {
  const db = new Database(databaseFile(dataDir), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT count(*) FROM pulses').pluck().get() as number;
  } finally {
    db.close();
  }
}
