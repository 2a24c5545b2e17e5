import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { msSince } from './stats';

/** The bundled CLI that `npm run bench` builds first. */
export const CLI = resolve(__dirname, '../../dist/cronbeat.cjs');

/** Environment for every child: data, config and home in the bench's temporary folder, never the user's. */
export function isolatedEnv(tempRoot: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, HOME: tempRoot, XDG_DATA_HOME: tempRoot, XDG_CONFIG_HOME: tempRoot, CRONBEAT_DATA_DIR: tempRoot, ...extra };
}

export interface Child {
  child: ChildProcess;
  url: string;
  /** From spawn to the line that says it listens, in ms. */
  startMs: number;
  /** Resident memory now, in MB (from /proc). */
  rssMb(): number;
  /** CPU time used so far (user + system), in ms (from /proc; 10 ms steps). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** Children still running, ended if the bench itself ends early (Ctrl-C, a crash). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/** Spawns `command` and resolves once a stdout line matches `ready` (its first group is the URL). */
export function spawnUntilReady(command: string, args: string[], ready: RegExp, env: NodeJS.ProcessEnv): Promise<Child> {
  const start = process.hrtime.bigint();
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const exited = new Promise<void>((done) => child.once('exit', () => (running.delete(child), done())));
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  return new Promise((resolveChild, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start within 60 s: ${stderr}`)), 60_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = ready.exec(line);
      if (!match) return;
      const startMs = msSince(start);
      clearTimeout(timer);
      resolveChild({
        child,
        url: match[1],
        startMs,
        rssMb: () => residentMb(child.pid!),
        cpuMs: () => cpuTimeMs(child.pid!),
        stop: () => (child.exitCode === null ? (child.kill('SIGTERM'), exited) : Promise.resolve()),
      });
    });
    exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited early with ${child.exitCode}: ${stderr}`));
    });
  });
}

/** `cronbeat serve` on a free port over `dataDir`, popups off when the build knows the flag. */
export function startAgentProcess(dataDir: string, tempRoot: string, extraArgs: string[] = []): Promise<Child> {
  // BENCH_AGENT_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' profiles every agent the bench starts (Node refuses --cpu-prof in NODE_OPTIONS).
  const nodeArgs = (process.env.BENCH_AGENT_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const args = [...nodeArgs, CLI, 'serve', '--port', '0', '--data-dir', dataDir, ...popupsOff(), ...extraArgs];
  return spawnUntilReady(process.execPath, args, /^Cronbeat listening on (http:\/\/\S+)$/, isolatedEnv(tempRoot));
}

let popupsFlag: string[] | undefined;
function popupsOff(): string[] {
  if (popupsFlag) return popupsFlag;
  const help = spawnSync(process.execPath, [CLI, 'serve', '--help'], { encoding: 'utf8' }).stdout ?? '';
  return (popupsFlag = help.includes('--no-popups') ? ['--no-popups'] : []);
}

/** The bare node:http server of bareServer.ts in its own process. */
export function startBareServer(tempRoot: string): Promise<Child> {
  const args = ['--import', 'tsx', resolve(__dirname, 'bareServer.ts')];
  return spawnUntilReady(process.execPath, args, /^listening on (http:\/\/\S+)$/, isolatedEnv(tempRoot));
}

export function residentMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** User + system CPU time of process `pid` in ms: fields 14 and 15 of /proc/PID/stat, in clock ticks (100 a second on Linux). */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
