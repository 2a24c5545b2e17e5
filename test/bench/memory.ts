import { runLoad } from './load';
import { PULSE_MONITORS } from './pulses';
import { figure, type Figure } from './report';
import { round } from './stats';

export const MEMORY_PULSES = 1_000_000;
const CHUNKS = 10;
const CONNECTIONS = 50;
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
 * Measurement 4, memory: pulses until the agent has taken MEMORY_PULSES in all, in CHUNKS equal
 * runs, reading its RSS after each; then the RSS at the end and its growth over the last half.
 */
export async function measurePulseMemory({ agentUrl, rssMb, alreadySent, log }: MemoryContext): Promise<Figure[]> {
  const startRss = rssMb();
  const remaining = Math.max(0, MEMORY_PULSES - alreadySent);
  const samples: Array<{ pulses: number; rss: number }> = [];
  let pulses = alreadySent;
  let notOk = 0;
  const started = Date.now();
  for (let chunk = 0; chunk < CHUNKS && Date.now() - started < TIME_BUDGET_MS; chunk++) {
    const amount = Math.round(remaining / CHUNKS);
    const result = await runLoad({ url: agentUrl, monitors: PULSE_MONITORS, connections: CONNECTIONS, amount });
    pulses += result.sent;
    notOk += result.non2xx + result.errors;
    samples.push({ pulses, rss: rssMb() });
    log(`${pulses.toLocaleString('en-US')} pulses: RSS ${round(samples.at(-1)!.rss, 1)} MB, ${Math.round(result.perSecond)}/s`);
  }
  // "After" the million: once the last pulse is answered and the agent has had a second to itself.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = rssMb();
  const end = samples.at(-1)!;
  const half = samples[Math.max(0, Math.floor(samples.length / 2) - 1)];
  const short = pulses < MEMORY_PULSES ? `; stopped at ${pulses.toLocaleString('en-US')} pulses after ${TIME_BUDGET_MS / 1000} s` : '';
  const peak = Math.max(...samples.map((s) => s.rss));
  return [
    figure({
      section: '4',
      name: `agent RSS after ${pulses.toLocaleString('en-US')} pulses`,
      value: round(after, 1),
      unit: 'MB',
      target: { below: 150 },
      baseline: { name: 'before the million', value: round(startRss, 1) },
      note: `1 s after the last pulse; ${round(end.rss, 1)} MB right after it, peak under load ${round(peak, 1)} MB${notOk ? `; ${notOk} not 200` : ''}${short}`,
    }),
    figure({
      section: '4',
      name: 'agent RSS growth over the last half of the million',
      value: round(end.rss - half.rss, 1),
      unit: 'MB',
      target: { below: 5 },
      baseline: { name: `RSS at ${half.pulses.toLocaleString('en-US')} pulses`, value: round(half.rss, 1) },
      note: `samples: ${samples.map((s) => Math.round(s.rss)).join(', ')} MB`,
    }),
  ];
}
