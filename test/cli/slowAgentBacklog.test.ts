import { describe, expect, it, vi, type OnTestFinishedHandler } from 'vitest';
import { Spool } from '../../agent/client/spool/spool';
import { Receiver } from '../helpers/receiver';
import { runCli, tempFolder } from '../helpers/cli';

/*
 * An agent that answers, but slowly (a busy disk, a proxy in trouble), and a spool that holds a
 * backlog for it: `ping` and `run` deliver older pulses first, and used to deliver all of them,
 * however long that took (20 pulses at 2 s each held `run` 40 s after its job; under `flock -n` or
 * a systemd timer, the next runs of the job were skipped meanwhile). They spend a bounded time on
 * the backlog, then keep their own pulse behind it, in order, for the next one.
 */

vi.setConfig({ testTimeout: 90_000 });

const ANSWER_AFTER_MS = 2_000;
const BACKLOG = 20;
const token = '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
/**
 * Stands in for an agent that takes every pulse, each after ANSWER_AFTER_MS; one a test, so the two can wait side by
 * side. Stopped by the test's own `onTestFinished`: the global one may belong to the other test by then.
 */
async function slowAgent(onTestFinished: (cleanup: OnTestFinishedHandler) => void): Promise<Receiver> {
  const agent = await new Receiver([(_request, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('OK'), ANSWER_AFTER_MS)]).start();
  onTestFinished(() => agent.stop());
  return agent;
}

async function withBacklog(agent: Receiver): Promise<{ dataDir: string; spool: Spool }> {
  const dataDir = tempFolder();
  const spool = new Spool(dataDir);
  for (let i = 0; i < BACKLOG; i++) await spool.append(agent.url, { tokenOrSlug: token, signal: 'success', body: `backlog ${i}`, key: `backlog-${i}`, at: Date.now() - 60_000 });
  return { dataDir, spool };
}

// Concurrent: each test spends its bounded 10 s waiting on its own slow agent.
describe.concurrent('a backlog for an agent that answers slowly', () => {
  for (const [what, args] of [
    ['run', (url: string) => ['run', token, '--url', url, '--', '/bin/sh', '-c', 'echo ran; exit 3']],
    ['ping', (url: string) => ['ping', token, '--fail', '--url', url]],
  ] as const) {
    it(`${what}: a bounded time on it, then its own pulse waits behind the rest, in order`, async ({ onTestFinished }) => {
      const agent = await slowAgent(onTestFinished);
      const { dataDir, spool } = await withBacklog(agent);
      const before = agent.requests.length;
      const started = performance.now();
      const result = await runCli(args(agent.url), { env: { CRONBEAT_DATA_DIR: dataDir } });
      const took = performance.now() - started;
      expect(result.status, result.stderr).toBe(what === 'run' ? 3 : 0);
      // The whole backlog takes BACKLOG × 2 s = 40 s; about 10 s are spent on it.
      expect(took).toBeLessThan(25_000);
      const delivered = agent.requests.length - before;
      expect(delivered).toBeGreaterThan(0);
      expect(delivered).toBeLessThan(BACKLOG);
      expect(result.stderr).toMatch(/saved to the spool \(the agent answered the older pulses waiting for it too slowly to send them all now/);
      // Nothing lost, nothing out of order: what is left of the backlog, then this command's own pulses.
      const waiting = (await spool.pending()).map((entry) => entry.pulse.body ?? entry.pulse.signal);
      const left = Array.from({ length: BACKLOG }, (_, i) => `backlog ${i}`).slice(BACKLOG - (waiting.length - (what === 'run' ? 2 : 1)));
      expect(waiting.slice(0, left.length)).toEqual(left);
      expect(waiting.length).toBe(left.length + (what === 'run' ? 2 : 1));
    });
  }
});
