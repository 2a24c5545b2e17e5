import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMonitorLoop } from '../../agent/engine/loop';
import { BUSY_SHARE, noteRequest, runInSlices } from '../../agent/engine/slices';
import { RecordingNotifier } from '../helpers/recordingNotifier';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { engineFixture } from './engineFixture';

/*
 * A burst of failures is failed in slices that yield to I/O, so pulses are answered
 * while it is failed; each failure is still raised once, and the burst makes one set of popups.
 * Nothing here is timed: the tests wait for conditions and look at what happened in between.
 */

/** How many monitors the loop failed in one go before it failed them in slices. */
const OLD_STEP = 500;

const untilTrue = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('runInSlices', () => {
  it('ends at once, in the same turn, when the work fits one slice', () => {
    let steps = 0;
    let ended = false;
    runInSlices(() => ++steps < 3, () => (ended = true));
    expect([steps, ended]).toEqual([3, true]);
  });

  it('lets other callbacks run between slices, hands over an error, and can be cancelled', async () => {
    let steps = 0;
    const seenBetween: number[] = [];
    const busyStep = () => {
      const until = performance.now() + 2; // longer than a slice, so every step ends one
      while (performance.now() < until);
      return ++steps < 6;
    };
    const probe = () => {
      seenBetween.push(steps);
      if (steps < 6) setImmediate(probe);
    };
    setImmediate(probe);
    await new Promise<void>((resolve) => runInSlices(busyStep, () => resolve()));
    expect(seenBetween.some((n) => n > 0 && n < 6)).toBe(true);

    const failure = await new Promise((resolve) =>
      runInSlices(() => {
        throw new Error('disk full');
      }, resolve),
    );
    expect(failure).toEqual(new Error('disk full'));

    let cancelledSteps = 0;
    let ended = false;
    const slowStep = () => {
      const until = performance.now() + 2;
      while (performance.now() < until);
      return ++cancelledSteps < 100;
    };
    const cancel = runInSlices(slowStep, () => (ended = true));
    cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(false);
    expect(cancelledSteps).toBeLessThan(100);
  });
});

describe('runInSlices while other work may come', () => {
  const busyFor = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  const steps = 12;
  const stepMs = 2; // longer than a slice, so every step ends one
  /**
   * How long `steps` steps take in slices after the first (which runs at once, as long as an idle
   * one), `others` doing 0.5 ms of other work after every turn meanwhile, and how many steps the
   * first slice took: how many depends on the machine's speed.
   */
  const timed = async (idle: boolean, others: boolean) => {
    let n = 0;
    let running = true;
    // A request arriving, as the agent's HTTP server notes each, and its 0.5 ms of work.
    const other = () => {
      noteRequest();
      busyFor(0.5);
      if (running) setImmediate(other);
    };
    if (others) setImmediate(other);
    let afterFirst = 0;
    let inFirst = 0;
    // Node's own timer, watched (not replaced): a slice that waits for its share asks it for the wait.
    const timers = vi.spyOn(globalThis, 'setTimeout');
    await new Promise<void>((resolve) => {
      runInSlices(
        () => (busyFor(stepMs), ++n < steps),
        () => resolve(),
        () => idle,
      );
      inFirst = n;
      afterFirst = performance.now();
    });
    running = false;
    await new Promise((resolve) => setImmediate(resolve)); // the last request's turn, before the next run
    // Only the slices' own waits: the test runner sets timers of its own meanwhile.
    const waits = timers.mock.calls.filter(([callback]) => callback.name === 'slice').length;
    timers.mockRestore();
    return { ms: performance.now() - afterFirst, inFirst, waits };
  };

  it('holds the event loop at most BUSY_SHARE of the time while other work runs between slices', async () => {
    // After the first slice each slice holds one step (longer than a slice); the one after it sees
    // the other work and waits from then on: before each later slice, at least its step's time
    // (1 − BUSY_SHARE) / BUSY_SHARE, less a millisecond of timer rounding (timers never fire
    // earlier). A lower bound, so it holds on a slow machine as on a fast one.
    const { ms, inFirst } = await timed(false, true);
    const waits = steps - inFirst - 1;
    expect(waits).toBeGreaterThan(3);
    expect(ms).toBeGreaterThanOrEqual(waits * ((stepMs * (1 - BUSY_SHARE)) / BUSY_SHARE - 1));
    expect(BUSY_SHARE).toBeLessThanOrEqual(0.2);
  });

  it('goes on at once when the caller says nothing else is going on, or when no request came since the last slice', async () => {
    // Counted, not timed: another test file running beside this one can slow either run.
    expect((await timed(false, true)).waits).toBeGreaterThan(3);
    expect((await timed(true, true)).waits).toBe(0);
    // Nothing else at all: the event loop's own overhead between two slices is no reason to wait.
    expect((await timed(false, false)).waits).toBe(0);
  });

  it('two pieces of background work side by side do not make each other wait: only requests do', async () => {
    // As a burst's failures and a digest in slices at the same time: each ran between the other's
    // slices, which the event loop's busy time took for requests, so both waited for nothing.
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const work = () => new Promise<void>((resolve) => {
      let n = 0;
      runInSlices(() => (busyFor(stepMs), ++n < steps), () => resolve());
    });
    await Promise.all([work(), work()]);
    const waits = timers.mock.calls.filter(([callback]) => callback.name === 'slice').length;
    timers.mockRestore();
    expect(waits).toBe(0);
  });

  it('two pieces of background work side by side while requests come hold the event loop at most BUSY_SHARE together', async () => {
    // Each keeping its own share, three of them (a burst's failures, a digest built, another settled) took half the loop.
    let running = true;
    const other = () => {
      noteRequest();
      busyFor(0.5);
      if (running) setImmediate(other);
    };
    setImmediate(other);
    let afterFirsts = 0;
    let inFirsts = 0;
    const work = () =>
      new Promise<void>((resolve) => {
        let n = 0;
        runInSlices(() => (busyFor(stepMs), ++n < steps), () => resolve());
        inFirsts += n;
        afterFirsts = performance.now();
      });
    await Promise.all([work(), work()]);
    const ms = performance.now() - afterFirsts;
    running = false;
    await new Promise((resolve) => setImmediate(resolve));
    // Every step after the first slices is a slice of its own (a step is longer than a slice). Each
    // that saw a request since its work's last slice (all but each work's second, at most) is followed
    // by a pause of its time × (1 − BUSY_SHARE) / BUSY_SHARE before any slice of either work; the
    // last pause may end the run. A lower bound, so it holds on a slow machine as on a fast one.
    const paused = 2 * steps - inFirsts - 3;
    expect(paused).toBeGreaterThan(6);
    expect(ms).toBeGreaterThanOrEqual(paused * ((stepMs * (1 - BUSY_SHARE)) / BUSY_SHARE - 1));
  });
});

describe('the monitor loop and a burst larger than a slice', () => {
  let fixture: ReturnType<typeof engineFixture>;
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    fixture?.close();
  });

  it('fails each monitor once, over many slices with other work in between, and shows one summary popup', async () => {
    const start = Date.now();
    fixture = engineFixture(start);
    const total = 1_500;
    fixture.store.db.transaction(() => {
      for (let i = 0; i < total; i++) fixture.monitor({ name: `job-${i}`, schedule: '0 3 * * *', duration: 5 });
    })();
    let failed = 0;
    fixture.events.subscribe((event) => {
      if (event.type === 'notification.created') failed++;
    });
    stop = startMonitorLoop({
      failer: fixture.failer,
      events: fixture.events,
      clock: Date.now,
      log: () => {},
    });
    // All due at the same instant, a moment after the loop started (before it, they would get a start's grace).
    const deadline = Date.now() + 100;
    fixture.store.db.prepare('UPDATE monitors SET due_at = @deadline, expected_run_at = @deadline - duration * 60000').run({ deadline });
    fixture.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 1 });

    const seenWhileFailing: number[] = [];
    const probe = () => {
      if (failed > 0) seenWhileFailing.push(failed);
      if (failed < total) setImmediate(probe);
    };
    await untilTrue(() => failed > 0 || Date.now() > deadline + 60_000);
    setImmediate(probe);
    await untilTrue(() => failed >= total && fixture.notifier.popups.length > 0);

    expect(seenWhileFailing.some((n) => n < total)).toBe(true); // other work ran in the middle of the burst
    const perMonitor = fixture.store.db
      .prepare(`SELECT json_extract(data, '$.type_id') AS monitor, count(*) AS n FROM notifications GROUP BY monitor HAVING n != 1`)
      .all();
    expect(perMonitor).toEqual([]);
    expect(fixture.store.notifications.count(1)).toBe(total);
    expect(fixture.store.db.prepare('SELECT count(*) FROM monitors WHERE is_alerted = 1').pluck().get()).toBe(total);
    expect(fixture.notifier.popups).toEqual([expect.objectContaining({ title: `${total} monitors missed`, route: '/monitors' })]);
    expect(fixture.store.popupOutbox.countPending()).toBe(0);
  });
});

describe('a real agent while a burst is failed', () => {
  let agent: TestAgent | undefined;
  afterEach(async () => {
    await agent?.stop();
    agent = undefined;
  });

  it('answers pulses over HTTP between the slices of the burst', async () => {
    const notifier = new RecordingNotifier();
    agent = await startTestAgent({ notifier });
    // Two whole steps of the old loop: enough to see one held the event loop. While pulses come
    // each failure is a transaction of its own, so every monitor more is seconds on a busy machine.
    const total = 2 * OLD_STEP;
    const created = await agent.api('/api/monitors', { method: 'POST', json: { name: 'pulsing', timezone: 'UTC', schedule: '* * * * *', duration: 5 } });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    const { store, events } = agent;
    const insert = store.db.prepare(
      `INSERT INTO monitors (company_id, name, token, timezone, schedule, duration, last_run_at, created_at, updated_at)
       VALUES (1, 'job ' || @i, 'burst-token-' || @i, 'UTC', '0 3 * * *', 5, @now, @now, @now)`,
    );
    store.db.transaction(() => {
      for (let i = 0; i < total; i++) insert.run({ i, now: agent!.clock() });
    })();
    let failed = 0;
    events.subscribe((event) => {
      if (event.type === 'notification.created') failed++;
    });
    const deadline = Date.now() + 100;
    store.db
      .prepare(`UPDATE monitors SET due_at = @deadline, expected_run_at = @deadline - duration * 60000 WHERE token LIKE 'burst-token-%'`)
      .run({ deadline });
    events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 1 });

    // Pulses one after another from before the deadline until the burst is failed; each notes how far it was.
    const answeredAt: number[] = [];
    while (failed < total) {
      const response = await fetch(`${agent.url}/api/pulse/${token}`);
      expect(response.status).toBe(200);
      await response.text();
      answeredAt.push(failed);
    }
    expect(failed).toBe(total);
    // Answered while the burst was under way: neither before it began nor after it ended...
    expect(answeredAt.filter((n) => n > 0 && n < total).length).toBeGreaterThan(0);
    // ...and never after a whole step of the old loop (OLD_STEP failures in one go) held the event loop.
    const progressBetweenPulses = answeredAt.slice(1).map((n, i) => n - answeredAt[i]!);
    expect(Math.max(...progressBetweenPulses)).toBeLessThan(OLD_STEP);
    await untilTrue(() => notifier.popups.length > 0);
    expect(notifier.popups.map((p) => p.title)).toEqual([`${total} monitors missed`]);
  });
});
