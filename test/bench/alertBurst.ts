import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { runLoad } from './load';
import { startAgentProcess } from './processes';
import { figure, type Figure } from './report';
import { seedDatabase } from './seed';
import { median, round } from './stats';

/*
 * Measurement 7: the alert path under a burst. 10,000 monitors fail at the same
 * instant, each alerting three webhook channels, each channel a receiver of its own in this
 * process. Measured: from the deadline until every receiver has heard of every failure (whether
 * one request per alert or digests naming many: a monitor counts once its name is in a body),
 * the agent's RSS while it drains, and its pulse rate meanwhile against the same load before.
 */

const FAILING = 10_000;
const LOAD_MONITORS = 1_000;
const CHANNELS = 3;
const LOAD = { connections: 10, seconds: 1 };
const DEADLINE_IN_MS = 6_000;
const GIVE_UP_MS = 120_000;

interface Receiver {
  url: string;
  requests: number;
  heard: Set<number>;
  /** When the last monitor not heard before arrived (performance.now()). */
  completeAt: number;
  server: Server;
}

function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', requests: 0, heard: new Set(), completeAt: 0, server: undefined as unknown as Server };
  receiver.server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.requests++;
      for (const match of Buffer.concat(chunks).toString().matchAll(/nightly job (\d+)/g)) {
        const n = Number(match[1]);
        if (n <= FAILING && !receiver.heard.has(n)) {
          receiver.heard.add(n);
          if (receiver.heard.size === FAILING) receiver.completeAt = performance.now();
        }
      }
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  return new Promise((resolve) =>
    receiver.server.listen(0, '127.0.0.1', () => {
      receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
      resolve(receiver);
    }),
  );
}

/** Monitors 1..FAILING all due at `deadline` (their run expected `duration` earlier, no grace pending). */
function dueAtOnce(dataDir: string, deadline: number): void {
  const db = new Database(databaseFile(dataDir));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(`UPDATE monitors SET due_at = @deadline, expected_run_at = @deadline - duration * 60000, grace_from = NULL WHERE id <= @failing`).run({
      deadline,
      failing: FAILING,
    });
  } finally {
    db.close();
  }
}

export interface AlertBurstContext {
  tempRoot: string;
  dataDir: string;
  log: (line: string) => void;
}

export async function measureAlertBurst({ tempRoot, dataDir, log }: AlertBurstContext): Promise<Figure[]> {
  const { token } = seedDatabase(dataDir, { monitors: FAILING + LOAD_MONITORS, monitorsOfCompany1: FAILING + LOAD_MONITORS, servers: 0, notifications: 0, now: Date.now() });
  const receivers = await Promise.all(Array.from({ length: CHANNELS }, startReceiver));
  const agent = await startAgentProcess(dataDir, tempRoot);
  try {
    const api = (path: string, body: unknown, method = 'POST') =>
      fetch(agent.url + path, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    for (const [i, receiver] of receivers.entries()) {
      const response = await api('/api/channels', { name: `burst hook ${i + 1}`, kind: 'webhook', settings: { url: receiver.url } });
      if (response.status !== 201) throw new Error(`POST /api/channels answered ${response.status}: ${await response.text()}`);
    }
    const load = () => runLoad({ url: agent.url, monitors: LOAD_MONITORS, firstMonitor: FAILING + 1, ...LOAD });
    await load(); // warm-up
    const idle = [await load(), await load(), await load()];
    const rssBefore = agent.rssMb();

    // The deadline, seen by the agent's loop once a monitor change makes it plan again.
    const deadline = Date.now() + DEADLINE_IN_MS;
    dueAtOnce(dataDir, deadline);
    await api(`/api/monitors/${FAILING + LOAD_MONITORS}`, { name: 'nightly job (load, renamed)' }, 'PATCH');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())));
    const deadlineAt = performance.now() - Math.max(0, Date.now() - deadline);
    log(`alert burst: ${FAILING} monitors due now, ${CHANNELS} channels each`);

    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, agent.rssMb())), 250);
    const draining: number[] = [];
    const done = () => receivers.every((r) => r.completeAt > 0);
    while (!done() && performance.now() - deadlineAt < GIVE_UP_MS) {
      const result = await load();
      if (!done()) draining.push(result.perSecond);
    }
    clearInterval(sampler);
    // Given up: the time it ran, a miss by at least that much.
    const reachedMs = done() ? Math.max(...receivers.map((r) => r.completeAt)) - deadlineAt : performance.now() - deadlineAt;
    const heard = Math.min(...receivers.map((r) => r.heard.size));
    const requests = receivers.map((r) => r.requests);
    log(`alert burst: ${done() ? 'every receiver complete' : 'given up'} after ${round(reachedMs)} ms; requests per receiver ${requests.join(', ')}`);
    const idleRate = median(idle.map((r) => r.perSecond));
    const drainRate = draining.length ? median(draining) : null;
    return [
      figure({
        section: '7',
        name: `alert burst: ${FAILING.toLocaleString('en-US')} monitors failing at once, ${CHANNELS} channels each, until every receiver heard of every one`,
        value: round(reachedMs / 1000, 1),
        unit: 's',
        target: { below: 30 },
        note:
          !done()
            ? `given up: ${heard.toLocaleString('en-US')} of ${FAILING.toLocaleString('en-US')} heard by the slowest receiver; ${requests.map((n) => n.toLocaleString('en-US')).join(' / ')} requests per receiver`
            : `${requests.map((n) => n.toLocaleString('en-US')).join(' / ')} requests per receiver`,
      }),
      figure({
        section: '7',
        name: 'alert burst: pulses/s while the alerts drain (10 connections)',
        value: drainRate === null ? null : Math.round(drainRate),
        unit: '/s',
        target: { atLeastShareOfBaseline: 0.8 },
        baseline: { name: 'the same load before the burst', value: Math.round(idleRate) },
        note: drainRate === null ? 'drained within the first second' : `median of ${draining.length} runs of 1 s while draining`,
      }),
      figure({
        section: '7',
        name: 'alert burst: agent RSS at its highest while draining',
        value: round(peakRss, 1),
        unit: 'MB',
        target: { below: 250 },
        baseline: { name: 'before the burst', value: round(rssBefore, 1) },
        note: `sampled every 250 ms; growth ${round(peakRss - rssBefore, 1)} MB`,
      }),
    ];
  } finally {
    await agent.stop();
    for (const receiver of receivers) receiver.server.close();
  }
}
