import { get } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startMonitorLoop } from '../../agent/engine/loop';
import { LoopHealthRecord } from '../../agent/engine/loopHealth';
import { startWatchdog, type WatchdogState } from '../../agent/engine/watchdog';
import { Receiver } from '../helpers/receiver';
import { at, engineFixture } from './engineFixture';

/*
 * The watchdog over the real monitor loop and a real store, pinging a real local receiver. Time is
 * vitest's fake clock (setTimeout and Date): the pings themselves are real HTTP requests, awaited
 * as they arrive. The loop is unhealthy in the two ways it really can be: its writes fail (the
 * database refuses them, as in diskFull.test.ts), or it stops running while the process lives.
 */

const CHECK_PATH = '/ping/5f1c2b8e-0d4a-4e7f-9a3b-1c2d3e4f5a6b';

let fixture: ReturnType<typeof engineFixture>;
let receiver: Receiver;
let stops: Array<() => void>;
let logged: string[];
let state: WatchdogState;
let waiting: Array<{ line: string; resolve: () => void }>;
const log = (line: string) => {
  logged.push(line);
  waiting = waiting.filter((w) => (w.line === line ? (w.resolve(), false) : true));
};
/** Resolves once `line` has been logged: the watchdog logs a ping's answer when it arrives, in real time. */
const logs = (line: string) => (logged.includes(line) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ line, resolve })));

beforeEach(async () => {
  receiver = await new Receiver().start();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(at('2026-11-21T10:00:20.500Z'));
  fixture = engineFixture(Date.now());
  // Due every minute with a minute's grace: the loop has a failure to write at 10:02, and each minute after.
  fixture.monitor({ name: 'every minute', schedule: '* * * * *', duration: 1 });
  stops = [];
  logged = [];
  state = { lastPingAt: null, problem: null };
  waiting = [];
});
afterEach(async () => {
  for (const stop of stops) stop();
  fixture.close();
  vi.useRealTimers();
  await receiver.stop();
});

/** The loop and the watchdog, as the agent starts them; returns the loop's stop. */
function start(): () => void {
  const health = new LoopHealthRecord();
  const stopLoop = startMonitorLoop({
    failer: fixture.failer,
    events: fixture.events,
    clock: () => Date.now(),
    log,
    health,
  });
  const stopWatchdog = startWatchdog({ url: () => receiver.url + CHECK_PATH, health, clock: () => Date.now(), log, userAgent: 'Cronbeat-Watchdog', state });
  stops.push(stopWatchdog, stopLoop);
  return stopLoop;
}

/** Moves the fake clock to `iso`, running every timer on the way. */
const advanceTo = (iso: string) => vi.advanceTimersByTimeAsync(at(iso) - Date.now());

/**
 * The number of pings once every one sent so far has arrived: a request of our own, sent after
 * them, arrives after them on loopback, and is not counted.
 */
let flushes = 0;
async function pingsSoFar(): Promise<number> {
  const flush = `/flush-${++flushes}`;
  // Answered means recorded: the receiver records a request before it answers it.
  await new Promise((done) => get(receiver.url + flush, (response) => response.resume().on('end', done)));
  return receiver.requests.filter((r) => r.url === CHECK_PATH).length;
}

describe('the watchdog', () => {
  it('pings within 10 s of start, then once a minute, and says nothing but a GET of the URL', async () => {
    start();
    await advanceTo('2026-11-21T10:00:30.500Z');
    await receiver.received(1);
    const [first] = receiver.requests;
    expect(first).toMatchObject({ method: 'GET', url: CHECK_PATH, body: '' });
    expect(first.headers['user-agent']).toBe('Cronbeat-Watchdog');
    expect(Object.keys(first.headers).sort()).toEqual(['connection', 'host', 'user-agent']);

    await advanceTo('2026-11-21T10:03:30.500Z');
    expect(await pingsSoFar()).toBe(4); // 10:00:25.5, 10:01:25.5, 10:02:25.5, 10:03:25.5
    await logs(`Watchdog: pinging 127.0.0.1:${receiver.port} every minute`);
  });

  it('stops while the loop cannot write, says so once, and pings again once it can', async () => {
    start();
    await advanceTo('2026-11-21T10:00:30.500Z');
    await receiver.received(1);
    fixture.store.db.pragma('query_only = 1');

    // The loop's next step (10:00:50.5, 30 s after the first) cannot write: no ping from 10:01:25.5 on.
    await advanceTo('2026-11-21T10:06:00.000Z');
    expect(await pingsSoFar()).toBe(1);
    expect(logged.filter((line) => line.startsWith('Watchdog: not pinging'))).toEqual(['Watchdog: not pinging while the monitor loop cannot write (for 35 s)']);
    // What the settings page shows: the first ping's time, and why none since.
    expect(state).toEqual({ lastPingAt: at('2026-11-21T10:00:25.500Z'), problem: 'Not pinging while the monitor loop cannot write (for 275 s).' });

    fixture.store.db.pragma('query_only = 0');
    await advanceTo('2026-11-21T10:08:00.000Z');
    expect(await pingsSoFar()).toBe(3); // the loop wrote at its next retry; pings at 10:06:25.5 and 10:07:25.5
    expect(logged).toContain('Watchdog: the monitor loop is healthy again; pinging again');
    // The answer reaches the watchdog in real time (setImmediate is not faked): wait for it, not for a clock.
    while (state.lastPingAt !== at('2026-11-21T10:07:25.500Z')) await new Promise((turn) => setImmediate(turn));
    expect(state.problem).toBeNull();
  });

  it('stops when the loop has not run for 90 s though the process lives', async () => {
    const stopLoop = start();
    await advanceTo('2026-11-21T10:00:30.500Z');
    await receiver.received(1);
    stopLoop(); // its last step ran at 10:00:20.5

    await advanceTo('2026-11-21T10:05:00.000Z');
    expect(await pingsSoFar()).toBe(2); // 10:01:25.5 is 65 s after it: still within the bound
    expect(logged.filter((line) => line.startsWith('Watchdog: not pinging'))).toEqual(['Watchdog: not pinging while the monitor loop has not run for 125 s']);
  });

  it('logs a failing ping once, without the URL, and its recovery once', async () => {
    receiver.answers = [{ status: 200 }, { status: 404 }, { status: 404 }, { status: 200 }];
    start();
    await advanceTo('2026-11-21T10:04:00.000Z');
    expect(await pingsSoFar()).toBe(4);
    await logs('Watchdog: pings are answered again');
    const watchdogLines = logged.filter((line) => line.startsWith('Watchdog'));
    expect(watchdogLines).toEqual([
      `Watchdog: pinging 127.0.0.1:${receiver.port} every minute`,
      'Watchdog: the ping failed (HTTP 404); trying again each minute',
      'Watchdog: pings are answered again',
    ]);
    expect(logged.join('\n')).not.toContain(CHECK_PATH);
  });

  it('pings nothing while no URL is set', async () => {
    const health = new LoopHealthRecord();
    health.succeeded(Date.now());
    stops.push(startWatchdog({ url: () => null, health, clock: () => Date.now(), log, userAgent: 'Cronbeat-Watchdog' }));
    await advanceTo('2026-11-21T10:03:00.000Z');
    expect(await pingsSoFar()).toBe(0);
    expect(logged).toEqual([]);
  });
});
