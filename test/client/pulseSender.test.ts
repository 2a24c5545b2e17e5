import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';
import { fakeTimeEnv, hasFakeTime } from '../helpers/fakeTime';
import { startTestAgent } from '../helpers/testAgent';
import { createMonitor, pulsesOf } from '../cli/agentFixtures';

// Real CLI processes against a real socket that never answers; their clock runs 20 times faster
// (libfaketime), so each 5 s timeout passes in a quarter of a second.
vi.setConfig({ testTimeout: 60_000 });

let silent: Server;
let url: string;
const requests: string[] = [];

beforeAll(async () => {
  // An agent that takes every connection and never answers (a frozen process, a wedged proxy).
  silent = createServer((socket) => {
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const line = /^(POST|GET) (\S+)/.exec(head);
      if (line && head.includes('\r\n\r\n')) {
        requests.push(line[2]);
        head = '';
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
  url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((closed) => silent.close(() => closed())));

describe.skipIf(!hasFakeTime)('a run against an agent that never answers', () => {
  it('tries the start three times, not six: once it has given up on the agent, the end waits in the spool behind the start after one more try', async () => {
    const dataDir = tempFolder();
    const result = await runCli(['run', 'some-token', '--url', url, '--', 'sh', '-c', 'exit 3'], {
      env: { CRONBEAT_DATA_DIR: dataDir, ...fakeTimeEnv('2026-03-08T06:40:00Z', 20) },
    });
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/^cronbeat: start and end pulses saved to the spool \(cannot reach http:\/\/127\.0\.0\.1:\d+ \(no answer within 5 s\)\); 2 pulses waiting/);
    // Three tries of the start while the job runs; at its end, one try of the start waiting in the spool.
    const starts = requests.filter((path) => path.startsWith('/api/pulse/some-token/start'));
    expect(starts).toHaveLength(4);
    expect(requests).toHaveLength(4);
    const listed = await runCli(['spool', 'list', '--json'], { env: { CRONBEAT_DATA_DIR: dataDir } });
    expect(JSON.parse(listed.stdout).map((row: { pulse: string }) => row.pulse)).toEqual(['start', 'exit 3']);
  });
});

describe('an answer no agent gives: a redirect', () => {
  it('keeps the pulses in the spool (never "refused" and dropped), to be flushed to the right URL', async () => {
    // What answers at --url is not the agent: a proxy sending http to https, a captive portal.
    const redirecting = createHttpServer((request, response) => {
      request.resume();
      response.writeHead(301, { Location: 'https://agent.example/api/pulse/x' }).end();
    });
    await new Promise<void>((listening) => redirecting.listen(0, '127.0.0.1', listening));
    const agent = await startTestAgent();
    try {
      const monitor = await createMonitor(agent);
      const wrongUrl = `http://127.0.0.1:${(redirecting.address() as { port: number }).port}`;
      const env = { CRONBEAT_DATA_DIR: tempFolder() };
      const result = await runCli(['run', monitor.token, '--url', wrongUrl, '--', 'sh', '-c', 'exit 3'], { env });
      expect(result.status).toBe(3);
      expect(result.stderr.trim().split('\n')).toEqual([
        `cronbeat: start and end pulses saved to the spool (${wrongUrl} answered 301 Moved Permanently, a redirect to https://agent.example/api/pulse/x: an agent never redirects a pulse; check --url or CRONBEAT_URL); 2 pulses waiting, sent by the next ping or run or by \`cronbeat spool flush\``,
      ]);
      // Behind those, the next pulse waits too, and says why: the redirect, not an agent out of reach
      // (which sent the admin looking for a stopped agent or a network fault).
      const redirected = `${wrongUrl} answered 301 Moved Permanently, a redirect to https://agent.example/api/pulse/x: an agent never redirects a pulse; check --url or CRONBEAT_URL`;
      const pinged = await runCli(['ping', monitor.token, '--url', wrongUrl], { env });
      expect(pinged.stderr).toBe(`cronbeat: pulse saved to the spool (${redirected}); 3 pulses waiting, sent by the next ping or run or by \`cronbeat spool flush\`\n`);
      const again = await runCli(['spool', 'flush'], { env });
      expect(again.status).toBe(1);
      expect(again.stderr).not.toMatch(/dropped/);
      expect(again.stderr).toBe(
        `cronbeat: Delivered 0 pulses; 3 still waiting. The agent at ${wrongUrl} did not take them (${redirected}). Start the desktop app or \`cronbeat serve\` if it is not running, and flush again.\n`,
      );
      const flushed = await runCli(['spool', 'flush', '--url', agent.url], { env });
      expect(flushed).toMatchObject({ status: 0, stdout: 'Delivered 3 pulses; 0 still waiting.\n' });
      expect((await pulsesOf(agent, monitor.id)).map((p) => [p.kind, p.exit_code])).toEqual([
        ['start', null],
        ['fail', 3],
        ['success', null],
      ]);
    } finally {
      await agent.stop();
      await new Promise((closed) => redirecting.close(closed));
    }
  });
});

describe('a redirect that echoes the pulse\'s path', () => {
  it('never prints the ping key a line\'s pulse carries in its path (cron mails stderr)', async () => {
    // A proxy sending http to https keeps the path: /api/pulse/key/cb_…/slug.
    const echoing = createHttpServer((request, response) => {
      request.resume();
      response.writeHead(301, { Location: `https://cron.example.com${request.url}` }).end();
    });
    await new Promise<void>((listening) => echoing.listen(0, '127.0.0.1', listening));
    try {
      const key = `cb_${'k'.repeat(43)}`;
      const wrongUrl = `http://127.0.0.1:${(echoing.address() as { port: number }).port}`;
      const env = { CRONBEAT_DATA_DIR: tempFolder(), CRONBEAT_API_TOKEN: key };
      const result = await runCli(['run', '--name', 'nightly', '--schedule', '0 3 * * *', '--url', wrongUrl, '--', 'sh', '-c', 'exit 3'], { env });
      expect(result.status).toBe(3);
      expect(result.stderr).toMatch(/a redirect to https:\/\/cron\.example\.com\/api\/pulse\/key\/\*\*\*\/nightly\/start/);
      const flushed = await runCli(['spool', 'flush'], { env });
      expect(flushed.stderr).toMatch(/a redirect to https:\/\/cron\.example\.com\/api\/pulse\/key\/\*\*\*\//);
      for (const output of [result, flushed]) expect(output.stdout + output.stderr).not.toContain(key);
    } finally {
      await new Promise((closed) => echoing.close(closed));
    }
  });
});

describe('an answer no agent gives: a web page', () => {
  it('keeps the pulses in the spool, not "delivered" to a page that took them (a portal, an app that answers every path)', async () => {
    const page = createHttpServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Welcome</title>');
    });
    await new Promise<void>((listening) => page.listen(0, '127.0.0.1', listening));
    const agent = await startTestAgent();
    try {
      const monitor = await createMonitor(agent);
      const wrongUrl = `http://127.0.0.1:${(page.address() as { port: number }).port}`;
      const env = { CRONBEAT_DATA_DIR: tempFolder() };
      const result = await runCli(['run', monitor.token, '--url', wrongUrl, '--', 'sh', '-c', 'exit 3'], { env });
      expect(result.status).toBe(3);
      expect(result.stderr).toBe(
        `cronbeat: start and end pulses saved to the spool (${wrongUrl} answered 200 with a web page (text/html), not as a Cronbeat agent does: check --url or CRONBEAT_URL); 2 pulses waiting, sent by the next ping or run or by \`cronbeat spool flush\`\n`,
      );
      const flushed = await runCli(['spool', 'flush', '--url', agent.url], { env });
      expect(flushed).toMatchObject({ status: 0, stdout: 'Delivered 2 pulses; 0 still waiting.\n' });
      expect((await pulsesOf(agent, monitor.id)).map((p) => [p.kind, p.exit_code])).toEqual([
        ['start', null],
        ['fail', 3],
      ]);
    } finally {
      await agent.stop();
      await new Promise((closed) => page.close(closed));
    }
  });
});
