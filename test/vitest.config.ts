import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ALL = 'test/**/*.test.{ts,tsx}';
/*
 * Files that change what the process holds for the files after them: Electron's module mocked
 * (vi.mock in test/main), TZ set (mute), the dashboard's module-level state (its clock, reach and
 * live streams), fake timers, and CRONBEAT_SHIM_DIR set in process.env by the discover tests, and
 * the slices' tests, which count waits that a pause of background work left by another file would
 * add to. Each runs in a fresh process. (Pure ones in test/main and test/renderer share.)
 */
const OWN_PROCESS = [
  'test/main/{autostart,dashboardWindow,desktop,desktopRemote,desktopStartFails,harden,mute,popups,preload,tray,window}.test.ts',
  'test/renderer/{live,logic,reach}.test.ts',
  'test/engine/loop.test.ts',
  'test/engine/clockSetBackLoop.test.ts',
  'test/engine/alertBurst.test.ts',
  'test/engine/diskFull.test.ts',
  'test/engine/delivery/transport.test.ts',
  'test/engine/watchdog.test.ts',
  'test/cli/crontab*.test.ts',
  'test/cli/discover*.test.ts',
  'test/cli/progress.test.ts',
  'test/client/proxy.test.ts',
];

// Tests start real agents, child processes and Chromium: give them room on a busy 2-core machine.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    // Most files wait on child processes, HTTP and Chromium rather than compute: on 2 cores,
    // vitest's default of one worker (cores - 1) leaves the machine half idle.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for something that will happen (a row on screen, a listener gone); its
    // default of 1 s is a deadline a busy machine misses. A bound, not a sleep: it ends when the
    // condition holds.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      // A fresh process per file costs a second of CPU to load vitest and the agent again, about a
      // minute of the suite's two cores: the files that leave the process as they found it (their
      // own temporary folders and ports, agents stopped) share their workers' processes.
      { extends: true, test: { name: 'shared', include: [ALL], exclude: OWN_PROCESS, isolate: false } },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS } },
    ],
  },
});
