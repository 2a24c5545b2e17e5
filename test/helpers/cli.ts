import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The built CLI: tests run it as users do, as a separate process (`npm run build:agent`; npm test builds it). */
export const CLI = resolve(__dirname, '../../dist/cronbeat.cjs');

export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** Run as this user (the tests run as root): a job whose user cannot use a folder. */
  user?: { uid: number; gid: number };
}

/** An environment without the caller's Cronbeat settings, plus `extra`. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // And as typed by the user, not through sudo: a suite run with `sudo npm test` would otherwise be
  // refused what sudo without --system is refused (a test that means sudo sets SUDO_USER itself).
  // Without the machine's NODE_EXTRA_CA_CERTS too: Node 20 reads and parses that bundle as each
  // process starts, whether it speaks TLS or not (0.11 s of CPU on the 2-core host, a third of a CLI
  // command, for the suite's ~900 children), and no child of a test trusts a certificate through it.
  for (const name of ['CRONBEAT_URL', 'CRONBEAT_DATA_DIR', 'CRONBEAT_API_TOKEN', 'SUDO_USER', 'SUDO_UID', 'SUDO_GID', 'SUDO_COMMAND', 'NODE_EXTRA_CA_CERTS']) delete env[name];
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value;
  return env;
}

/** Starts `node dist/cronbeat.cjs ARGS`; asynchronous, so an agent in this process keeps answering. */
export function spawnCli(args: string[], options: CliOptions = {}): ChildProcess {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build:agent\` first`);
  // A temporary folder of its own unless the test names one: the job side keeps pulses in
  // $TMPDIR/cronbeat-UID when its data folder cannot be used, and the next ping whose data folder
  // works takes them along, so a shared one would carry one test's pulses into another's spool.
  const tmp = ownTmpdir();
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv({ TMPDIR: tmp, ...options.env }), stdio: ['pipe', 'pipe', 'pipe'], ...options.user });
  child.on('close', () => rmSync(tmp, { recursive: true, force: true }));
  return child;
}

/** A new folder for a child's $TMPDIR, open to every user as /tmp is (children may run as another user). */
function ownTmpdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cronbeat-tmpdir-'));
  chmodSync(dir, 0o1777);
  return dir;
}

/** Waits for a spawned CLI to end and collects its output. */
export function finished(child: ChildProcess, input?: string): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status, signal) => resolvePromise({ status, signal, stdout, stderr }));
    child.stdin!.end(input ?? '');
  });
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return finished(spawnCli(args, options), options.input);
}

export function tempFolder(prefix = 'cronbeat-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A port on 127.0.0.1 where nothing listens (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Sends a signal and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `cronbeat serve --port 0 …` and resolves with its URL once it prints the listening line. */
export function startServe(args: string[], env: Record<string, string | undefined> = {}): Promise<ServeProcess> {
  const child = spawnCli(['serve', '--port', '0', ...args], { env });
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
