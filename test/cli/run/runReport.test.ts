import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { finished, runCli, spawnCli, tempFolder } from '../../helpers/cli';
import { until } from '../../helpers/until';

// Real CLI processes against a real socket that never answers.
vi.setConfig({ testTimeout: 30_000 });

let silent: Server;
let url: string;

beforeAll(async () => {
  // An agent that takes every connection and never answers: run is still reporting when it is stopped.
  silent = createServer((socket) => socket.on('error', () => {}).resume());
  await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
  url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((closed) => silent.close(() => closed())));

describe('cronbeat run stopped after its job ended, while it reports it', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal}: exits with the job's own status and keeps both pulses in the spool`, async () => {
      const dataDir = tempFolder();
      const child = spawnCli(['run', 'some-token', '--url', url, '--', 'sh', '-c', 'echo "job $$"; exit 5'], { env: { CRONBEAT_DATA_DIR: dataDir } });
      const done = finished(child);
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const job = Number((await until(() => /^job (\d+)$/m.exec(stdout), 'the job to start'))[1]);
      // The job is over (reaped) while the start pulse still waits for its first answer.
      await until(() => !existsSync(`/proc/${job}`), 'the job to end');
      child.kill(signal);
      const result = await done;
      expect(result.status).toBe(5);
      expect(result.stderr).toBe(`cronbeat: stopped by ${signal} while reporting the run: 2 pulses not yet answered kept in the spool, sent by the next ping or run or by \`cronbeat spool flush\`\n`);
      const listed = await runCli(['spool', 'list', '--json'], { env: { CRONBEAT_DATA_DIR: dataDir } });
      expect(JSON.parse(listed.stdout).map((row: { pulse: string }) => row.pulse)).toEqual(['start', 'exit 5']);
    });
  }
});
