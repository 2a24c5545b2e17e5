import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnCli, tempFolder } from '../helpers/cli';

/*
 * `cronbeat crontab watch` while its agent is down (a restart, a day's outage): each round wrote
 * the same "report not sent" warning and listed every waiting alert again, a line or more a
 * minute into the journal. What holds is said once, what changes is said when it changes, and the
 * delivery when the agent is back.
 */

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  cleanups = [];
});

/** An agent that answers 503 until `up`, counting what it is asked. */
async function flakyAgent() {
  const seen = { heartbeats: 0, alerts: 0, up: false };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.url === '/api/servers/heartbeat') seen.heartbeats++;
      if (request.url === '/api/servers/alert') seen.alerts++;
      if (!seen.up) return response.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"starting"}');
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => server.close());
  return { seen, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

describe('crontab watch with its agent down for many rounds', () => {
  it('says the warning and the waiting alert once, then the delivery', async () => {
    const agent = await flakyAgent();
    const folder = tempFolder();
    const file = join(folder, 'crontab');
    writeFileSync(file, '0 1 * * * /a.sh\n');
    const child = spawnCli(['crontab', 'watch', '--server', 'web-7', '--interval', '1', '--file', file], {
      env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: 'cb_test', CRONBEAT_DATA_DIR: folder },
    });
    cleanups.push(() => child.kill('SIGKILL'));
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise((done) => child.on('close', done));

    await expect.poll(() => stdout, { timeout: 20_000 }).toMatch(/watching 1 cron job/);
    writeFileSync(file, '0 2 * * * /a.sh\n');
    // Several rounds with the alert waiting and the report refused.
    await expect.poll(() => agent.seen.alerts, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
    agent.seen.up = true;
    await expect.poll(() => stdout, { timeout: 20_000 }).toMatch(/^\S+ delivered: /m);
    child.kill('SIGTERM');
    await exited;

    const lines = stdout.split('\n').filter(Boolean).map((line) => line.replace(/^\S+ /, ''));
    const count = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
    expect(count(/^warning: report not sent: /), stdout).toBe(1);
    expect(count(/^1 alert waiting, not delivered: /), stdout).toBe(1);
    expect(count(/^ {2}waiting: /), stdout).toBe(1);
    expect(count(/^delivered: /), stdout).toBe(1);
  }, 60_000);
});
