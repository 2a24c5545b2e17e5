import { figure, type Figure } from './report';
import { startAgentProcess } from './processes';
import { median, round } from './stats';

const RUNS = 3;

/** Starts `cronbeat serve` RUNS times over `dataDir`; the start times (spawn to listening line) and the last RSS. */
async function startTimes(dataDir: string, tempRoot: string): Promise<{ times: number[]; rssMb: number }> {
  const times: number[] = [];
  let rssMb = NaN;
  for (let i = 0; i < RUNS; i++) {
    const agent = await startAgentProcess(dataDir, tempRoot);
    times.push(agent.startMs);
    rssMb = agent.rssMb();
    await agent.stop();
  }
  return { times, rssMb };
}

/**
 * Measurement 4, start-up: from spawning `cronbeat serve` to its "listening" line, over the
 * seeded database (100,000 monitors, 1,000,000 notifications), next to the same over an empty one.
 */
export async function measureStartup(bigDataDir: string, emptyDataDir: string, tempRoot: string): Promise<Figure[]> {
  const empty = await startTimes(emptyDataDir, tempRoot);
  const big = await startTimes(bigDataDir, tempRoot);
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
      name: 'agent RSS right after start, same data',
      value: round(big.rssMb, 1),
      unit: 'MB',
      baseline: { name: 'empty database', value: round(empty.rssMb, 1) },
    }),
  ];
}
