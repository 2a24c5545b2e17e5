import { spawn } from 'node:child_process';
import { CLI, isolatedEnv } from './processes';
import { storedPulses } from './pulses';
import { figure, type Figure } from './report';
import { median, msSince, round } from './stats';
import { monitorToken } from './tokens';

const RUNS = 10;

/** Spawns a command and resolves with its wall time once it exits; rejects on a non-zero status. */
function timedRun(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    let stderr = '';
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(msSince(start)) : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/**
 * Measurement 5: `cronbeat run TOKEN -- true` end to end (start pulse, the process, exit
 * pulse) next to `true` alone, RUNS times each; both pulses of every run must be stored.
 */
export async function measureCliRun(agentUrl: string, dataDir: string, tempRoot: string): Promise<Figure[]> {
  const env = isolatedEnv(tempRoot);
  const args = [CLI, 'run', monitorToken(1), '--url', agentUrl, '--data-dir', tempRoot, '--', 'true'];
  const before = storedPulses(dataDir);
  const bare: number[] = [];
  const wrapped: number[] = [];
  const nodeAlone: number[] = [];
  const overNode: number[] = [];
  for (let i = -1; i < RUNS; i++) {
    const t = await timedRun('true', [], env);
    const w = await timedRun(process.execPath, args, env);
    const n = await timedRun(process.execPath, ['-e', '0'], env);
    if (i >= 0) {
      bare.push(t);
      wrapped.push(w);
      nodeAlone.push(n);
      // Pair by pair, so a machine that slows down in between changes both sides alike.
      overNode.push(w - n);
    }
  }
  const stored = storedPulses(dataDir) - before;
  return [
    figure({
      section: '5',
      name: '`cronbeat run -- true` end to end',
      value: round(median(wrapped), 1),
      unit: 'ms',
      target: { below: 150 },
      baseline: { name: '`true` alone', value: round(median(bare), 1) },
      note: `median of ${RUNS}; \`node -e 0\` alone ${round(median(nodeAlone), 1)} ms; ${stored} of ${2 * (RUNS + 1)} pulses stored`,
    }),
    figure({
      section: '5',
      name: '`cronbeat run -- true` over `node -e 0` (the job side starts fast)',
      value: round(median(overNode), 1),
      unit: 'ms',
      target: { below: 40 },
      baseline: { name: '`node -e 0`', value: round(median(nodeAlone), 1) },
      note: `median of ${RUNS} differences, each run beside its own \`node -e 0\``,
    }),
  ];
}
