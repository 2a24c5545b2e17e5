import { runLoad } from './load';
import { PULSE_MONITORS } from './pulses';
import { figure, type Figure } from './report';
import { median, round } from './stats';

export const MEMORY_PULSES = 1_000_000;
const CHUNKS = 10;
const CONNECTIONS = 50;
const SAMPLE_EVERY_MS = 250;
/** The million stops early past this, so the whole bench stays within its 10 minutes; the figure then says so. */
const TIME_BUDGET_MS = 240_000;

export interface MemoryContext {
  agentUrl: string;
  /** The agent's resident memory now, in MB. */
  rssMb(): number;
  /** Pulses the agent has already taken (they count towards the million). */
  alreadySent: number;
  log(line: string): void;
}

/**
 * Measurement 4, memory: pulses until the agent has taken MEMORY_PULSES in all, in CHUNKS runs,
 * its RSS read every SAMPLE_EVERY_MS. Under load the RSS is a saw (the garbage collector lets the
 * heap grow, then collects), so single readings swing by 20 MB: the figures are medians over
 * stretches of the run. "After the million" is the median over its last tenth; "growth over the
 * last half" compares the median of the last quarter with that of the third. A leak raises both.
 */
export async function measurePulseMemory({ agentUrl, rssMb, alreadySent, log }: MemoryContext): Promise<Figure[]> {
  const startRss = rssMb();
  const remaining = Math.max(0, MEMORY_PULSES - alreadySent);
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssMb()), SAMPLE_EVERY_MS);
  let pulses = alreadySent;
  let notOk = 0;
  const started = Date.now();
  try {
    for (let chunk = 0; chunk < CHUNKS && Date.now() - started < TIME_BUDGET_MS; chunk++) {
      // The last chunk takes what rounding left, so the run ends at the million exactly.
      const amount = chunk === CHUNKS - 1 ? MEMORY_PULSES - pulses : Math.round(remaining / CHUNKS);
      if (amount <= 0) break;
      const result = await runLoad({ url: agentUrl, monitors: PULSE_MONITORS, connections: CONNECTIONS, amount });
      pulses += result.sent;
      notOk += result.non2xx + result.errors;
      log(`${pulses.toLocaleString('en-US')} pulses: RSS ${round(rssMb(), 1)} MB, ${Math.round(result.perSecond)}/s`);
    }
  } finally {
    clearInterval(sampler);
  }
  const part = (from: number, to: number) => samples.slice(Math.floor(samples.length * from), Math.ceil(samples.length * to));
  const lastTenth = median(part(0.9, 1));
  const thirdQuarter = median(part(0.5, 0.75));
  const lastQuarter = median(part(0.75, 1));
  const short = pulses < MEMORY_PULSES ? `; stopped at ${pulses.toLocaleString('en-US')} pulses after ${TIME_BUDGET_MS / 1000} s` : '';
  return [
    figure({
      section: '4',
      name: `agent RSS after ${pulses.toLocaleString('en-US')} pulses`,
      value: round(lastTenth, 1),
      unit: 'MB',
      target: { below: 150 },
      baseline: { name: 'before the million', value: round(startRss, 1) },
      note: `median of the last tenth of the run (${samples.length} readings in all); range ${round(Math.min(...samples), 0)}–${round(Math.max(...samples), 0)} MB${notOk ? `; ${notOk} not 200` : ''}${short}`,
    }),
    figure({
      section: '4',
      name: 'agent RSS growth over the last half of the million',
      value: round(lastQuarter - thirdQuarter, 1),
      unit: 'MB',
      target: { below: 5 },
      baseline: { name: 'median RSS of the third quarter', value: round(thirdQuarter, 1) },
      note: 'median of the last quarter minus that of the third',
    }),
  ];
}
