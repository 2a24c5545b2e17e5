import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests start real agents, child processes and Chromium: give them room on a busy 2-core machine.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
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
  },
});
