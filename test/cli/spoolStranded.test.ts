import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { closedPort, runCli, tempFolder } from '../helpers/cli';

/*
 * While the data folder cannot be used (a home on a disk not yet mounted, a folder of the wrong
 * owner), `ping` and `run` keep their pulses in a private folder of the temporary directory,
 * $TMPDIR/cronbeat-UID. Once the data folder works again, its spool is the one replayed, and the
 * pulses in the temporary folder were never sent: a job's failure during the outage was never told.
 * The next `ping`, `run` or `spool flush` takes them along, first, in order; but only from a folder
 * of this user's own (never another user's files in a shared /tmp).
 */

const STRANDED = '0b3c7a2e-8f7d-4a55-9b8e-3d2f1c0a9e10';
const LATER = '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';

/** A data folder path that cannot be used until `repair()`: a file stands where its parent folder goes. */
function brokenDataDir() {
  const root = tempFolder();
  const blocker = join(root, 'home');
  writeFileSync(blocker, '');
  return {
    dataDir: join(blocker, 'cronbeat'),
    repair() {
      rmSync(blocker);
      mkdirSync(blocker);
    },
  };
}

/** An agent stand-in that answers every pulse 200 and records the tokens it was sent, in order. */
async function recordingAgent(port = 0) {
  const tokens: string[] = [];
  const server = createServer((request, response) => {
    const token = /\/api\/pulse\/([^/?]+)/.exec(request.url ?? '')?.[1];
    if (token) tokens.push(token);
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"OK"}');
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tokens, close: () => server.close() };
}

describe.skipIf(process.platform === 'win32').concurrent('pulses kept in the temporary folder while the data folder was unusable', () => {
  it('are sent by the next ping once the data folder works, before its own pulse', { timeout: 30_000 }, async ({ expect }) => {
    const tmp = tempFolder();
    const { dataDir, repair } = brokenDataDir();
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const env = { TMPDIR: tmp };

    const spooled = await runCli(['ping', STRANDED, '--fail', '--url', url, '--data-dir', dataDir], { env });
    expect(spooled.status).toBe(0);
    expect(spooled.stderr).toContain(`kept in ${join(tmp, `cronbeat-${process.getuid!()}`)}`);

    repair();
    const agent = await recordingAgent(port);
    try {
      const later = await runCli(['ping', LATER, '--url', url, '--data-dir', dataDir], { env });
      expect(later.status).toBe(0);
      expect(later.stderr).toBe('');
      expect(agent.tokens).toEqual([STRANDED, LATER]);
      // Taken, not copied: the next ping sends it no more.
      const again = await runCli(['ping', LATER, '--url', url, '--data-dir', dataDir], { env });
      expect(again.status).toBe(0);
      expect(agent.tokens).toEqual([STRANDED, LATER, LATER]);
    } finally {
      agent.close();
    }
  });

  it('wait in the data folder, in order, when the agent is still away, and `spool flush` sends them', { timeout: 30_000 }, async ({ expect }) => {
    const tmp = tempFolder();
    const { dataDir, repair } = brokenDataDir();
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const env = { TMPDIR: tmp };
    expect((await runCli(['ping', STRANDED, '--fail', '--url', url, '--data-dir', dataDir], { env })).status).toBe(0);

    repair();
    // Listed as waiting before any ping takes them along.
    const first = await runCli(['spool', 'list', '--json', '--data-dir', dataDir], { env });
    expect(JSON.parse(first.stdout).map((row: { token: string }) => row.token)).toEqual([STRANDED]);
    expect((await runCli(['ping', LATER, '--url', url, '--data-dir', dataDir], { env })).status).toBe(0);
    const listed = await runCli(['spool', 'list', '--json', '--data-dir', dataDir], { env });
    expect(JSON.parse(listed.stdout).map((row: { token: string }) => row.token)).toEqual([STRANDED, LATER]);
    expect(existsSync(join(tmp, `cronbeat-${process.getuid!()}`, 'spool.jsonl'))).toBe(false);

    const agent = await recordingAgent(port);
    try {
      const flushed = await runCli(['spool', 'flush', '--data-dir', dataDir], { env });
      expect(flushed.stdout).toBe('Delivered 2 pulses; 0 still waiting.\n');
      expect(agent.tokens).toEqual([STRANDED, LATER]);
    } finally {
      agent.close();
    }
  });

  it.skipIf(process.getuid?.() !== 0)('are left alone in a folder of the same name that is not this user\'s', { timeout: 30_000 }, async ({ expect }) => {
    const tmp = tempFolder();
    const { dataDir, repair } = brokenDataDir();
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const env = { TMPDIR: tmp };
    expect((await runCli(['ping', STRANDED, '--fail', '--url', url, '--data-dir', dataDir], { env })).status).toBe(0);
    // Someone else's now (as if another user had made it first in a shared /tmp): not ours to send or remove.
    const folder = join(tmp, `cronbeat-${process.getuid!()}`);
    const spool = readFileSync(join(folder, 'spool.jsonl'), 'utf8');
    chownSync(folder, 65534, 65534);
    chownSync(join(folder, 'spool.jsonl'), 65534, 65534);

    repair();
    const agent = await recordingAgent(port);
    try {
      const later = await runCli(['ping', LATER, '--url', url, '--data-dir', dataDir], { env });
      expect(later.status).toBe(0);
      expect(agent.tokens).toEqual([LATER]);
      expect(readFileSync(join(folder, 'spool.jsonl'), 'utf8')).toBe(spool);
    } finally {
      agent.close();
    }
  });
});
