#!/usr/bin/env node
/*
 * `npm test`: the build, then every test with the type check, the lint and the layer check
 * beside them, each timed; fails when any of them fails. The checks do not need the build and
 * the tests do not need the checks, and the tests leave much of two cores idle while they wait
 * on child processes and Chromium: run one after the other, the checks added half a minute.
 * Arguments go to vitest (`npm test -- test/cli/run.test.ts`).
 */
import { spawn } from 'node:child_process';

const started = Date.now();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** Runs a command; its output goes straight through, or is kept to be shown at the end. */
function step(name, command, args, { keepOutput = false } = {}) {
  const began = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: keepOutput ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    // One buffer for both streams: their interleaving is only for a person to read.
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name, code: 1, ms: Date.now() - began, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), ms: Date.now() - began, output }));
  });
}

const seconds = (ms) => {
  const s = ms / 1000;
  return s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
};

// The build alone first: it is a few seconds, and the tests wait for it (beside the checks it took five times as long).
const build = await step('build', npm, ['run', 'build']);
const checks = Promise.all([
  step('tsc --noEmit', npx, ['tsc', '--noEmit'], { keepOutput: true }),
  // The cache is per checkout (a file named from the working folder) and only skips unchanged files.
  step('lint', npx, ['eslint', '.', '--cache', '--cache-location', 'node_modules/.cache/eslint/'], { keepOutput: true }),
  step('lint:layers', npm, ['run', '--silent', 'lint:layers'], { keepOutput: true }),
]);
const tests = build.code === 0 ? await step('vitest', npx, ['vitest', 'run', '--config', 'test/vitest.config.ts', ...process.argv.slice(2)]) : undefined;
const results = [build, ...(await checks), ...(tests ? [tests] : [])];

for (const result of results) {
  if (result.code !== 0 && result.output) process.stdout.write(`\n── ${result.name} failed ──\n${result.output}`);
}
const failed = results.filter((result) => result.code !== 0);
console.log(`\nnpm test: ${results.map((r) => `${r.name} ${seconds(r.ms)}${r.code === 0 ? '' : ' (failed)'}`).join(' · ')}`);
console.log(`npm test took ${seconds(Date.now() - started)}${failed.length ? `; failed: ${failed.map((r) => r.name).join(', ')}` : ''}`);
if (!tests) console.log('The tests did not run: the build failed.');
process.exit(failed.length ? 1 : 0);
