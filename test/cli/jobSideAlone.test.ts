import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { CLI, closedPort, type CliResult } from '../helpers/cli';
import { createMonitor, pulsesOf } from './agentFixtures';
import { until } from '../helpers/until';
import { engines, version } from '../../package.json';

// docs/cli.md: on a server, `run`, `ping` and `spool` need nothing but dist/cronbeat.cjs. Here
// it is copied alone into an empty folder with no node_modules above it, as a server has it.
vi.setConfig({ testTimeout: 60_000 });

let agent: TestAgent;
let pingKey: string;
let downUrl: string;

beforeAll(async () => {
  agent = await startTestAgent();
  pingKey = agent.store.apiTokens.create({ companyId: 1, name: 'server', scope: 'ping', now: Date.now() }).token;
  downUrl = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(() => agent.stop());

/** An empty folder holding a copy of dist/cronbeat.cjs and nothing else, with no node_modules on the way up. */
function aloneFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'cronbeat-alone-'));
  for (let dir = folder; ; dir = dirname(dir)) {
    expect(existsSync(join(dir, 'node_modules')), `${dir}/node_modules would let a missing package be found`).toBe(false);
    if (dir === dirname(dir)) break;
  }
  copyFileSync(CLI, join(folder, 'cronbeat.cjs'));
  return folder;
}

/** Runs `node [NODE_ARGS] FOLDER/cronbeat.cjs ARGS` there, with nothing of this repository in its environment. */
function runThere(folder: string, args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...nodeArgs, join(folder, 'cronbeat.cjs'), ...args], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder, CRONBEAT_DATA_DIR: join(folder, 'data'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', fail);
    child.on('close', (status, signal) => done({ status, signal, stdout, stderr }));
  });
}

/**
 * The syntax in `source` that Node 8 cannot parse (ES2018 and later, and what V8 6 lacked), by
 * name. A file holding any fails as a whole with a SyntaxError: nothing of it runs, not even the
 * check of Node's version, nor the job.
 */
function newerThanNode8(source: string): string[] {
  const file = ts.createSourceFile('cronbeat.cjs', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const found = new Set<string>();
  const newOperators = [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken, ts.SyntaxKind.AmpersandAmpersandEqualsToken];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.QuestionDotToken) found.add('?.');
    if (ts.isBinaryExpression(node) && newOperators.includes(node.operatorToken.kind)) found.add(ts.tokenToString(node.operatorToken.kind)!);
    if (node.kind === ts.SyntaxKind.PrivateIdentifier) found.add('#private');
    if (ts.isPropertyDeclaration(node)) found.add('class field');
    if (ts.isClassStaticBlockDeclaration(node)) found.add('static block');
    if (node.kind === ts.SyntaxKind.BigIntLiteral) found.add('bigint');
    if (ts.isNumericLiteral(node) && node.getText(file).includes('_')) found.add('numeric separator');
    if (ts.isCatchClause(node) && !node.variableDeclaration) found.add('catch without binding');
    if (ts.isForOfStatement(node) && node.awaitModifier) found.add('for await');
    if (ts.isFunctionLike(node) && 'asteriskToken' in node && node.asteriskToken && ts.getCombinedModifierFlags(node as ts.Declaration) & ts.ModifierFlags.Async) found.add('async generator');
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText(file);
      if (/[^gimuy]/.test(text.slice(text.lastIndexOf('/') + 1))) found.add('regular expression flag');
      if (/\(\?<|\\[pP]\{/.test(text)) found.add('regular expression named group, lookbehind or property');
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...found];
}

const job = ['--', '/bin/sh', '-c', 'echo ran; exit 3'];

describe('dist/cronbeat.cjs alone in an empty folder', () => {
  it('runs --version, run (by token and by line), ping and spool against a real agent', async () => {
    const folder = aloneFolder();
    expect(await runThere(folder, ['--version'])).toMatchObject({ status: 0, stdout: `${version}\n`, stderr: '' });

    const monitor = await createMonitor(agent, 'alone');
    expect(await runThere(folder, ['run', monitor.token, '--url', agent.url, ...job])).toMatchObject({ status: 3, stdout: 'ran\n', stderr: '' });
    expect(await runThere(folder, ['ping', monitor.token, '--url', agent.url])).toMatchObject({ status: 0, stderr: '' });
    expect((await pulsesOf(agent, monitor.id)).map((p) => p.kind)).toEqual(['start', 'fail', 'success']);

    // The line form reads the schedule and the zone: cron-parser and the zone list are in the file too.
    const byLine = await runThere(folder, ['run', '--name', 'alone line', '--schedule', '0 3 * * *', '--timezone', 'Europe/Paris', ...job], {
      CRONBEAT_URL: agent.url,
      CRONBEAT_API_TOKEN: pingKey,
    });
    expect(byLine).toMatchObject({ status: 3, stdout: 'ran\n', stderr: '' });
    const [made] = agent.store.monitors.list(1).filter((m) => m.slug === 'alone-line');
    expect(made).toMatchObject({ schedule: '0 3 * * *', timezone: 'Europe/Paris' });

    expect(await runThere(folder, ['spool', 'list'])).toMatchObject({ status: 0, stdout: 'The spool is empty: no pulse is waiting to be delivered.\n' });
  });

  it('with the agent down: the job runs, pulses wait in the spool, and spool flush delivers them', async () => {
    const folder = aloneFolder();
    const monitor = await createMonitor(agent, 'alone, agent down');
    const ran = await runThere(folder, ['run', monitor.token, '--url', downUrl, ...job]);
    expect(ran).toMatchObject({ status: 3, stdout: 'ran\n' });
    expect(ran.stderr).toMatch(/^cronbeat: start and end pulses saved to the spool/);
    expect(await runThere(folder, ['ping', monitor.token, '--url', downUrl])).toMatchObject({ status: 0 });
    const listed = await runThere(folder, ['spool', 'list', '--json']);
    expect(JSON.parse(listed.stdout).map((row: { pulse: string }) => row.pulse)).toEqual(['start', 'exit 3', 'success']);
    expect(await runThere(folder, ['spool', 'flush', '--url', agent.url])).toMatchObject({ status: 0, stdout: 'Delivered 3 pulses; 0 still waiting.\n' });
    expect((await pulsesOf(agent, monitor.id)).map((p) => p.kind)).toEqual(['start', 'fail', 'success']);
  });

  it('compiles the schedule\'s packages only for a line that needs them (scripts/buildJobSide.mjs: V8 only scans their text at start)', async () => {
    const folder = aloneFolder();
    // Says on stderr what node:vm compiles, put in front with --require as a user could.
    const spy = join(folder, 'vm-spy.cjs');
    writeFileSync(
      spy,
      `const vm = require('node:vm');
const compile = vm.runInThisContext;
vm.runInThisContext = function (source, options) {
  process.stderr.write('compiled ' + String(options && options.filename).replace(/^.* \\[/, '[') + '\\n');
  return compile.apply(this, arguments);
};
`,
    );
    const monitor = await createMonitor(agent, 'alone, late packages');
    const byToken = await runThere(folder, ['run', monitor.token, '--url', agent.url, ...job], {}, ['--require', spy]);
    expect(byToken).toMatchObject({ status: 3, stdout: 'ran\n', stderr: '' });
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: pingKey };
    const byLine = await runThere(folder, ['run', '--name', 'late line', '--schedule', '0 3 * * *', '--timezone', 'Europe/Paris', ...job], env, ['--require', spy]);
    expect(byLine).toMatchObject({ status: 3, stdout: 'ran\n' });
    expect(byLine.stderr.split('\n').filter(Boolean).sort()).toEqual(['compiled [@vvo/tzdb]', 'compiled [cron-parser]', 'compiled [cronstrue]']);
    expect(agent.store.monitors.list(1).find((m) => m.slug === 'late-line')).toMatchObject({ schedule: '0 3 * * *', timezone: 'Europe/Paris' });
  });

  it('says in one line that the other commands need the whole package', async () => {
    const folder = aloneFolder();
    const serve = await runThere(folder, ['serve']);
    expect(serve.status).toBe(1);
    expect(serve.stderr).toMatch(/^cronbeat: "serve" is not here: .*cronbeat-full\.cjs is not beside this file\. This file alone runs only `run`, `ping` and `spool`/);
    expect(serve.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a damaged dist/cronbeat-full.cjs beside it changes nothing for the job side', async () => {
    const folder = aloneFolder();
    writeFileSync(join(folder, 'cronbeat-full.cjs'), readFileSync(resolve(dirname(CLI), 'cronbeat-full.cjs')).subarray(0, 5000));
    const monitor = await createMonitor(agent, 'alone, damaged sibling');
    expect(await runThere(folder, ['run', monitor.token, '--url', agent.url, ...job])).toMatchObject({ status: 3, stdout: 'ran\n', stderr: '' });
    expect(await runThere(folder, ['ping', monitor.token, '--url', agent.url])).toMatchObject({ status: 0, stderr: '' });
    expect(await runThere(folder, ['spool', 'list'])).toMatchObject({ status: 0 });
    const monitorList = await runThere(folder, ['monitor', 'list']);
    expect(monitorList.status).toBe(1);
    expect(monitorList.stderr).toMatch(/^cronbeat: "monitor" is not here: .*cronbeat-full\.cjs cannot be loaded \(/);
    expect(monitorList.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a dist/cronbeat-full.cjs cut short where it still parses (it loads, and holds no commands) is named as damaged, in one line', async () => {
    const folder = aloneFolder();
    writeFileSync(join(folder, 'cronbeat-full.cjs'), '"use strict";\nvar i');
    const monitorList = await runThere(folder, ['monitor', 'list']);
    expect(monitorList.status).toBe(1);
    expect(monitorList.stderr).toMatch(/^cronbeat: "monitor" is not here: .*cronbeat-full\.cjs cannot be loaded \(it holds no commands: a damaged or partial copy\)\. /);
    expect(monitorList.stderr.trim().split('\n')).toHaveLength(1);
    const help = await runThere(folder, ['--help']);
    expect(help.stdout).toContain('The other commands are not here: ');
  });

  it('runs the job when the monitoring part cannot load (a Node built without OpenSSL, for a line), and monitors a run by token without node:crypto', async () => {
    const folder = aloneFolder();
    // What `node` built with --without-ssl does on require('crypto'), put in front with --require.
    const noCrypto = join(folder, 'no-crypto.cjs');
    writeFileSync(
      noCrypto,
      `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (/^(node:)?crypto$/.test(request)) {
    const error = new Error('Node.js is not compiled with OpenSSL crypto support');
    error.code = 'ERR_NO_CRYPTO';
    throw error;
  }
  return load.call(this, request, ...rest);
};
`,
    );
    // A line's monitor is remembered under a hash of its key (agent/client/pulses/lineMemory.ts).
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: pingKey };
    const result = await runThere(folder, ['run', '--name', 'no crypto', '--schedule', '0 3 * * *', ...job], env, ['--require', noCrypto]);
    expect(result).toMatchObject({ status: 3, stdout: 'ran\n' });
    expect(result.stderr).toBe('cronbeat: not monitoring this run: Node.js is not compiled with OpenSSL crypto support\n');
    // A run by token needs no node:crypto: its ids come from /dev/urandom (agent/client/pulses/randomIds.ts).
    const monitor = await createMonitor(agent, 'alone, no crypto');
    expect(await runThere(folder, ['run', monitor.token, '--url', agent.url, ...job], {}, ['--require', noCrypto])).toMatchObject({ status: 3, stdout: 'ran\n', stderr: '' });
    expect((await pulsesOf(agent, monitor.id)).map((p) => p.kind)).toEqual(['start', 'fail']);
  });

  it('on a Node older than package.json\'s engines: one line, the job still runs with its own status, nothing else starts', async () => {
    // Run by hand on real Node 8.17, 12.22, 16.20 and 18.20 (docs/cli.md, "Getting cronbeat"):
    // the file parses there (built for node8) and this check answers before anything else loads.
    const folder = aloneFolder();
    const oldNode = join(folder, 'old-node.cjs');
    writeFileSync(oldNode, `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.20.4' } });\n`);
    const said = (line: string) => `cronbeat: Node 18.20.4 is too old: Cronbeat needs Node ${engines.node.replace('>=', '')} or newer (see "Getting cronbeat" in docs/cli.md)${line}\n`;
    const monitor = await createMonitor(agent, 'alone, old node');

    const ran = await runThere(folder, ['run', monitor.token, '--url', agent.url, ...job, '--help'], {}, ['--require', oldNode]);
    expect(ran).toEqual({ status: 3, signal: null, stdout: 'ran\n', stderr: said('; the command runs, unmonitored.') });
    const byLine = await runThere(folder, ['run', '--name', 'old', '--schedule', '0 3 * * *', 'sh', '-c', 'exit 5'], { CRONBEAT_URL: agent.url }, ['--require', oldNode]);
    expect(byLine).toMatchObject({ status: 5, stderr: said('; the command runs, unmonitored.') });
    expect(await runThere(folder, ['run', monitor.token, '--url', agent.url, '--', 'no-such-program-here'], {}, ['--require', oldNode])).toMatchObject({ status: 127 });
    expect(await runThere(folder, ['run', monitor.token, '--url', agent.url, '--', oldNode], {}, ['--require', oldNode])).toMatchObject({ status: 126 });
    // What the line says of its command is written out, as every line cronbeat prints: no ESC reaches the terminal.
    const escaped = await runThere(folder, ['run', monitor.token, '--', '/no/such/\u001b]52;c;eA==\u0007\u001b[2J'], {}, ['--require', oldNode]);
    expect(escaped.status).toBe(127);
    expect(escaped.stderr).not.toContain('\u001b');
    expect(escaped.stderr).not.toContain('\u0007');
    expect(escaped.stderr).toContain('/no/such/\\u001b]52;c;eA==\\u0007\\u001b[2J could not be started');
    // A misspelt run with a job in its line runs the job there too, as on a newer Node.
    expect(await runThere(folder, ['runn', monitor.token, '--', 'sh', '-c', 'exit 5'], {}, ['--require', oldNode])).toMatchObject({ status: 5, stderr: said('; the command runs, unmonitored.') });
    expect(await runThere(folder, ['run', monitor.token], {}, ['--require', oldNode])).toMatchObject({ status: 2, stderr: said('.') });
    // So does a line with options before its run.
    expect(await runThere(folder, ['--url', agent.url, 'run', monitor.token, '--', 'sh', '-c', 'exit 5'], {}, ['--require', oldNode])).toMatchObject({ status: 5, stderr: said('; the command runs, unmonitored.') });

    for (const args of [['ping', monitor.token, '--url', agent.url], ['--version'], ['serve']]) {
      expect(await runThere(folder, args, {}, ['--require', oldNode]), args.join(' ')).toEqual({ status: 1, signal: null, stdout: '', stderr: said('.') });
    }
    expect(await pulsesOf(agent, monitor.id)).toEqual([]);
  });

  it('on a Node too old, a signal sent to run is the job\'s: run neither dies of it nor leaves the job behind', async () => {
    const folder = aloneFolder();
    const oldNode = join(folder, 'old-node.cjs');
    writeFileSync(oldNode, `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.20.4' } });\n`);
    const ready = join(folder, 'ready');
    const heard = join(folder, 'heard');
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGUSR1'] as const) {
      rmSync(ready, { force: true });
      const script = `trap 'echo ${signal} > ${heard}; exit 42' ${signal.slice(3)}; touch ${ready}; i=0; while [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done`;
      const child = spawn(process.execPath, ['--require', oldNode, join(folder, 'cronbeat.cjs'), 'run', '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f', '--', '/bin/sh', '-c', script], {
        cwd: folder,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder },
        stdio: 'ignore',
      });
      const ended = new Promise<[number | null, string | null]>((done) => child.on('close', (status, killedBy) => done([status, killedBy])));
      await until(() => existsSync(ready), 'the job to start');
      child.kill(signal);
      // Before, Node 18 died of the signal (143) and the job ran on alone, never told.
      expect(await ended, signal).toEqual([42, null]);
      expect(readFileSync(heard, 'utf8')).toBe(`${signal}\n`);
    }
  });

  it('parses on Node 8, so that an old Node reaches that check instead of a SyntaxError', () => {
    expect(newerThanNode8(readFileSync(CLI, 'utf8'))).toEqual([]);
  });
});
