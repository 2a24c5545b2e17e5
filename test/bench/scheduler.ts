import { databaseFile } from '../../agent/dataFolder/dataDir';
import { openStore, type Store } from '../../agent/db/store';
import { AgentEvents } from '../../agent/engine/events';
import { startMonitorLoop } from '../../agent/engine/loop';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import type { Notifier, Popup } from '../../agent/engine/popups/notifier';
import { figure, type Figure } from './report';
import { median, quantile, round, timeRuns } from './stats';

const BURST = 10_000;
const STAGGERED = 2_000;
const STAGGER_MS = 3_000;

class CountingNotifier implements Notifier {
  popups = 0;
  show(_popup: Popup): void {
    this.popups++;
  }
}

/** The empty step, timed over a database: the loop's step and its lookup of when the next step has work, 200 times each. */
async function emptyStep(dataDir: string): Promise<{ step: number[]; earliest: number[] }> {
  const store = openStore(databaseFile(dataDir), Date.now());
  try {
    const failer = createOverdueFailer({ store, events: new AgentEvents(), notifier: new CountingNotifier() });
    const now = Date.now();
    const step = await timeRuns(() => new Promise<void>((resolve, reject) => failer.step({ clock: () => now }, (error) => (error === undefined ? resolve() : reject(error)))), 200, 20);
    const earliest = await timeRuns(() => failer.nextStepAt(), 200, 20);
    return { step, earliest };
  } finally {
    store.close();
  }
}

/**
 * Measurement 2, over `bigDataDir` (100,000 monitors on staggered schedules, none due) next to
 * `smallDataDir` (1,000 monitors): the empty step; then, with the real loop on the real clock,
 * BURST monitors falling due at the same instant and STAGGERED more due over STAGGER_MS, and
 * how late each failure was written by the loop's own clock.
 */
export async function measureScheduler(bigDataDir: string, smallDataDir: string, log: (line: string) => void): Promise<Figure[]> {
  const small = await emptyStep(smallDataDir);
  const big = await emptyStep(bigDataDir);
  const figures: Figure[] = [
    figure({
      section: '2',
      name: 'scheduler step with nothing due, 100,000 monitors',
      value: round(median(big.step), 3),
      unit: 'ms',
      target: { below: 1 },
      baseline: { name: '1,000 monitors', value: round(median(small.step), 3) },
      note: `median of 200; p99 ${round(quantile(big.step, 0.99), 3)} ms`,
    }),
    figure({
      section: '2',
      name: "loop's earliest-due lookup (after every step and change), 100,000 monitors",
      value: round(median(big.earliest), 3),
      unit: 'ms',
      target: { below: 1 },
      baseline: { name: '1,000 monitors', value: round(median(small.earliest), 3) },
      note: `median of 200; p99 ${round(quantile(big.earliest, 0.99), 3)} ms`,
    }),
  ];
  figures.push(...(await burstAndStagger(bigDataDir, log)));
  return figures;
}

async function burstAndStagger(dataDir: string, log: (line: string) => void): Promise<Figure[]> {
  const store = openStore(databaseFile(dataDir), Date.now());
  const events = new AgentEvents();
  const notifier = new CountingNotifier();
  const failer = createOverdueFailer({ store, events, notifier });
  try {
    const floorMs = sqlFloor(store);
    const burstAt = Date.now() + 1_000;
    const staggerFrom = burstAt + 1_000;
    // The burst: every 10th monitor, due at the same instant; the staggered: others spread over STAGGER_MS.
    setDue(store, `id % 10 = 0 AND id <= ${BURST * 10}`, '@at', { at: burstAt });
    setDue(store, `id % 10 = 5 AND id <= ${STAGGERED * 10}`, '@from + (id * 7919) % @spread', { from: staggerFrom, spread: STAGGER_MS });

    const failedAt = new Map<number, number>();
    let timerLateness: number[] = [];
    const unsubscribe = events.subscribe((event) => {
      if (event.type === 'monitor.changed') failedAt.set(event.monitorId, Date.now());
    });
    const stopTimers = sampleTimerLateness((late) => (timerLateness = late));
    const stopLoop = startMonitorLoop({ failer, events, clock: Date.now, log });
    const done = await waitFor(() => failedAt.size >= BURST + STAGGERED, staggerFrom + STAGGER_MS + 30_000);
    stopLoop();
    stopTimers();
    unsubscribe();
    if (!done) log(`scheduler: only ${failedAt.size} of ${BURST + STAGGERED} failures within the time allowed`);

    const burstTimes = [...failedAt].filter(([id]) => id % 10 === 0).map(([, at]) => at);
    const burstDone = Math.max(...burstTimes) - burstAt;
    const lateness = store.db
      .prepare(`SELECT updated_at - @from - (id * 7919) % @spread FROM monitors WHERE id % 10 = 5 AND id <= ${STAGGERED * 10} AND is_alerted = 1`)
      .pluck()
      .all({ from: staggerFrom, spread: STAGGER_MS }) as number[];
    const burstFailed = store.db.prepare(`SELECT count(*) FROM monitors WHERE id % 10 = 0 AND id <= ${BURST * 10} AND is_alerted = 1`).pluck().get() as number;
    log(`scheduler: burst of ${burstFailed} failed within ${burstDone} ms; ${lateness.length} staggered, p99 ${quantile(lateness, 0.99)} ms late; ${notifier.popups} popups`);
    return [
      figure({
        section: '2',
        name: `failing ${BURST.toLocaleString('en-US')} due at once, notifications included`,
        value: burstFailed === BURST ? burstDone : null,
        unit: 'ms',
        target: { below: 1000 },
        baseline: { name: 'same rows and notifications by plain SQL', value: round(floorMs, 1) },
        note: `from the deadline to the last failure written, real loop; ${burstFailed} failed, ${notifier.popups} popups`,
      }),
      figure({
        section: '2',
        name: 'deadline to failure written, p99 (loop clock)',
        value: lateness.length > 0 ? quantile(lateness, 0.99) : null,
        unit: 'ms',
        target: { below: 1000 },
        baseline: { name: 'setTimeout lateness p99, same process', value: round(quantile(timerLateness, 0.99), 1) },
        note: `${lateness.length} monitors due over ${STAGGER_MS / 1000} s; p50 ${quantile(lateness, 0.5)} ms`,
      }),
    ];
  } finally {
    store.close();
  }
}

/** Points some monitors' deadline at `dueSql`, their expected run `duration` minutes before it. */
function setDue(store: Store, where: string, dueSql: string, params: Record<string, number>): void {
  store.db
    .prepare(`UPDATE monitors SET due_at = ${dueSql}, expected_run_at = ${dueSql} - duration * 60000, grace_from = NULL WHERE ${where}`)
    .run(params);
}

/** The database floor: the same updates and notification rows by two plain statements, rolled back. */
function sqlFloor(store: Store): number {
  const start = process.hrtime.bigint();
  store.db.exec('BEGIN');
  try {
    store.db.exec(`UPDATE monitors SET is_alerted = 1, alert_reason = 'late', due_at = NULL WHERE id % 10 = 0 AND id <= ${BURST * 10}`);
    store.db.exec(
      `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, created_at, updated_at)
       SELECT 'floor-' || id, 'failed', 'company', company_id, json_object('name', name, 'token', token, 'schedule', schedule), 0, 0
       FROM monitors WHERE id % 10 = 0 AND id <= ${BURST * 10}`,
    );
    return Number(process.hrtime.bigint() - start) / 1e6;
  } finally {
    store.db.exec('ROLLBACK');
  }
}

/** How late 10 ms timers fire in this process while the loop runs: the event loop's own floor. */
function sampleTimerLateness(report: (lateness: number[]) => void): () => void {
  const lateness: number[] = [];
  let stopped = false;
  const arm = () => {
    const planned = Date.now() + 10;
    setTimeout(() => {
      lateness.push(Date.now() - planned);
      if (!stopped) arm();
    }, 10);
  };
  arm();
  return () => {
    stopped = true;
    report(lateness);
  };
}

function waitFor(condition: () => boolean, until: number): Promise<boolean> {
  return new Promise((resolve) => {
    const poll = () => (condition() ? resolve(true) : Date.now() > until ? resolve(false) : setTimeout(poll, 20));
    poll();
  });
}
