import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

/** The bundled CLI that `npm install` and `npm test` build (npm run build:agent). */
export const CLI = resolve(__dirname, '../../dist/cronbeat.cjs');

function ensureBuilt() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build:agent\` first (npm test does).`);
}

/** Runs `cronbeat ARGS…` to completion as a real child process. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {}): SpawnSyncReturns<string> {
  ensureBuilt();
  return spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    input: options.input,
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    timeout: 30_000,
  });
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Sends a signal and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `cronbeat serve --port 0 …` and resolves with its URL once it prints the listening line. */
export function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  ensureBuilt();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolveServe, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^Cronbeat listening on (http:\/\/\S+)$/.exec(line);
      if (match) resolveServe({ child, url: match[1], stop: (signal = 'SIGTERM') => (child.kill(signal), exited) });
    });
    exited.then((code) => reject(new Error(`cronbeat serve exited with ${code}: ${stderr}`)));
  });
}
