import { existsSync } from 'node:fs';

/** libfaketime, preloaded into a child process so its clock starts where a test wants. */
const LIBFAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'].find(
  (file) => existsSync(file),
);

/** Whether child processes can be given a fake clock here (tests that need one skip otherwise). */
export const hasFakeTime = LIBFAKETIME !== undefined;

/**
 * Environment variables that start a child's clock (wall and monotonic) at `startIso` (UTC),
 * running `speed` times faster than real time. Preloaded into the process itself (not the
 * `faketime` wrapper, which forks), so signals sent to the child reach the clocked process.
 */
export function fakeTimeEnv(startIso: string, speed = 1): Record<string, string> {
  if (!LIBFAKETIME) throw new Error('libfaketime is not installed');
  const start = new Date(startIso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');
  return { LD_PRELOAD: LIBFAKETIME, FAKETIME: `@${start}${speed === 1 ? '' : ` x${speed}`}`, TZ: 'UTC' };
}
