import { createServer, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, finished, spawnCli } from '../helpers/cli';
import { makeLeaf, startTlsServer } from '../engine/certificates/tls-fixtures';
import { startTestAgent } from '../helpers/testAgent';

/*
 * `cronbeat notifications --follow` pointed at what a user gets wrong: a web server that is no
 * Cronbeat agent, a certificate this machine does not trust, http vs https, nothing listening;
 * and its output piped into `head`. Each ends in one line a person acts on, never a stack trace
 * nor an endless reconnect loop that says nothing.
 */

let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise((done) => server.close(done)));
  return `127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** Runs the follower until it exits by itself (or is stopped after `ms`, which a test then fails on). */
async function followUntilExit(url: string, ms = 20_000) {
  const child = spawnCli(['notifications', '--follow', '--url', url, '--token', 'cb_whatever']);
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const result = await finished(child);
  clearTimeout(timer);
  return result;
}

describe('cronbeat notifications --follow, from outside', () => {
  it('says in one line that a web server answering 200 to everything is not a Cronbeat agent, and exits 1', async () => {
    const address = await listen(createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>welcome</html>')));
    const result = await followUntilExit(`http://${address}`);
    expect(result.signal).toBeNull();
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`cronbeat: http://${address} is not a Cronbeat agent: its /api/events answered text/html, not an event stream. Check --url.\n`);
  }, 30_000);

  it('says in one line that the certificate is not trusted, and exits 1 instead of retrying for ever', async () => {
    const server = await startTlsServer(makeLeaf());
    cleanups.push(() => server.close());
    const result = await followUntilExit(`https://127.0.0.1:${server.port}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `cronbeat: cannot reach https://127.0.0.1:${server.port}: TLS: the agent showed a self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT); trust its authority with NODE_EXTRA_CA_CERTS=/path/ca.pem, or fix the URL.\n`,
    );
  }, 30_000);

  it('says https:// to a plain-HTTP port is the wrong scheme, and exits 1', async () => {
    const address = await listen(createServer((_request, response) => response.end('plain')));
    const result = await followUntilExit(`https://${address}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^cronbeat: cannot reach https://${address.replace(/\./g, '\\.')}: TLS: no TLS at that address \\(.+\\); is the URL http:// rather than https://\\?\\.\\n$`));
  }, 30_000);

  it('with nothing listening yet, says it cannot reach the agent (not that it lost it) and keeps trying', async () => {
    const port = await closedPort();
    const child = spawnCli(['notifications', '--follow', '--url', `http://127.0.0.1:${port}`, '--token', 'cb_whatever']);
    cleanups.push(async () => child.kill('SIGKILL'));
    const firstLine = await new Promise<string>((done) => createInterface({ input: child.stderr! }).once('line', done));
    expect(firstLine).toBe(`cronbeat: cannot reach http://127.0.0.1:${port} (connection refused: is the agent running, at that port? (ECONNREFUSED)); retrying`);
    expect(child.exitCode).toBeNull();
  }, 30_000);

  it('piped into `head -n 1`, stops quietly when head has its line: no EPIPE stack trace', async () => {
    // The follower is the subject: the agent runs in this process, and pulses come over HTTP.
    const agent = await startTestAgent();
    cleanups.push(() => agent.stop());
    const token = agent.store.apiTokens.create({ companyId: 1, name: 'reader', scope: 'read-only', now: Date.now() }).token;
    const full = agent.token;
    const created = await fetch(`${agent.url}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${full}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'nightly', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 }),
    });
    const monitor = (await created.json()) as { token: string };

    const child = spawnCli(['notifications', '--follow', '--json', '--url', agent.url, '--token', token]);
    cleanups.push(async () => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((done) => child.once('close', done)); // stderr read to its end
    await new Promise<void>((done) => createInterface({ input: child.stderr! }).on('line', (line) => line.includes('following') && done()));
    // The reader takes one line and goes, as `head -n 1` does.
    const lines = createInterface({ input: child.stdout! });
    const first = new Promise<string>((done) => lines.once('line', (line) => (child.stdout!.destroy(), done(line))));
    for (const action of ['/fail', '', '/fail', '']) await fetch(`${agent.url}/api/pulse/${monitor.token}${action}`, { method: 'POST' });
    expect(JSON.parse(await first)).toMatchObject({ id: expect.any(String) });
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
  }, 60_000);
});

describe('the follower in the desktop app (no stopWhenWrongPlace)', () => {
  it('behind a captive portal that answers 200 to everything, keeps trying instead of giving up for good', async () => {
    const { NotificationFollower } = await import('../../agent/client/follow/follower');
    let answers = 0;
    const address = await listen(createServer((_request, response) => (answers++, response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Hotel Wi-Fi</html>'))));
    const losses: Array<string | undefined> = [];
    const follower = new NotificationFollower({
      baseUrl: `http://${address}`,
      token: 'cb_x',
      reconnectDelaysMs: [10],
      onNotifications: () => {},
      onConnection: (connected, reason) => !connected && losses.push(reason),
    });
    const running = follower.run();
    const settled = running.then(() => 'stopped', (error: Error) => error.message);
    await new Promise<void>((done) => {
      const poll = setInterval(() => answers >= 3 && (clearInterval(poll), done()), 10);
    });
    follower.stop();
    expect(await settled).toBe('stopped');
    expect(losses).toEqual(['its /api/events answered text/html, not an event stream']);
  });
});
