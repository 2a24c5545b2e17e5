import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, runCli, tempFolder } from '../helpers/cli';

/*
 * A spool full of pulses for monitors since deleted (a job's crontab line left behind, pinging
 * for weeks while the agent was away): the first pulse sent once the agent is back replays them,
 * and the agent refuses each for good. That was a line per pulse in the job's cron mail, up to
 * the spool's 10,000. It is a line per monitor, a few monitors at most, the rest counted.
 */

let close: () => void = () => {};
afterEach(() => close());

const TOKENS = Array.from({ length: 6 }, (_, i) => `0b3c7a2e-8f7d-4a55-9b8e-3d2f1c0a9e1${i}`);
const LIVE = '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';

describe('a replay of many pulses the agent refuses', () => {
  it('is said in a line per monitor, at most five, and one for the rest', async () => {
    const dataDir = tempFolder();
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    // Spooled while nothing listens, by jobs at once (the spool takes concurrent writers): 3 pulses for each of 6 deleted monitors.
    const pings = await Promise.all(TOKENS.flatMap((token) => [1, 2, 3].map(() => runCli(['ping', token, '--url', url, '--data-dir', dataDir]))));
    expect(pings.map((ping) => ping.status)).toEqual(pings.map(() => 0));
    // The agent is back: it knows one monitor only.
    const server = createServer((request, response) => {
      const known = request.url?.includes(LIVE);
      response.writeHead(known ? 200 : 404, { 'content-type': 'application/json' }).end(known ? '{"message":"OK"}' : '{"message":"Monitor not found."}');
    });
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    close = () => server.close();

    const result = await runCli(['ping', LIVE, '--url', url, '--data-dir', dataDir]);
    expect(result.status).toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(6);
    const named = lines.slice(0, 5).map((line) => /^cronbeat: dropped 3 spooled pulses for (\S+): the agent refused them \(404 Monitor not found\.\)$/.exec(line)?.[1]);
    expect(new Set(named).size).toBe(5);
    for (const token of named) expect(TOKENS).toContain(token);
    expect(lines[5]).toBe('cronbeat: dropped 3 more spooled pulses for 1 other monitor, refused by the agent too');
  }, 60_000);
});
