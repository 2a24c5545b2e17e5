import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { closedPort } from '../helpers/cli';

/*
 * The Dockerfile and compose example. There is no Docker engine here and hadolint is not
 * packaged for Debian 12 (docs/deploy.md), so this checks what a linter and a reviewer would:
 * pinned bases, a non-root user, the data folder a volume, a working health check,
 * production-only dependencies that hold everything the bundle loads.
 */

const ROOT = resolve(__dirname, '../..');

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined and comments dropped, split into stages. */
function stages(): Instruction[][] {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const result: Instruction[][] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!match || line.trim().startsWith('#')) continue;
    const instruction = { keyword: match[1], args: match[2].replace(/\s+/g, ' ').trim() };
    if (instruction.keyword === 'FROM') result.push([]);
    result[result.length - 1].push(instruction);
  }
  return result;
}

const all = stages();
const final = all[all.length - 1];
const args = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword).map((i) => i.args);

describe('Dockerfile', () => {
  it('builds from exact Node releases, never a moving tag', () => {
    for (const stage of all) {
      const [base] = args(stage, 'FROM');
      expect(base).toMatch(/^node:\d+\.\d+\.\d+-[a-z]+-slim(@sha256:[0-9a-f]{64})?( AS \w+)?$/);
    }
  });

  it('runs as a user other than root', () => {
    const users = args(final, 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/^(root|0)(:|$)/);
    // Nothing runs as root after the switch.
    const lastUser = final.findLastIndex((i) => i.keyword === 'USER');
    expect(final.slice(lastUser).filter((i) => i.keyword === 'RUN')).toEqual([]);
  });

  it('keeps the data folder in a volume the agent uses, owned by its user', () => {
    expect(args(final, 'VOLUME')).toEqual(['["/data"]']);
    expect(args(final, 'ENV').join(' ')).toMatch(/CRONBEAT_DATA_DIR=\/data\b/);
    expect(args(final, 'RUN').join(' ')).toMatch(/chown node:node \/data/);
  });

  it('installs production dependencies only, from the lock file', () => {
    expect(args(final, 'RUN').join(' ')).toMatch(/npm ci --omit=dev\b/);
    expect(args(final, 'RUN').join(' ')).not.toMatch(/npm install\b/);
    expect(args(final, 'COPY')).toContain('package.json package-lock.json ./');
  });

  it('serves on all addresses of the container at the exposed port', () => {
    expect(args(final, 'EXPOSE')).toEqual(['8787']);
    expect(JSON.parse(args(final, 'CMD')[0])).toEqual(['serve', '--host', '0.0.0.0', '--port', '8787', '--no-popups']);
  });

  it('copies only what exists in the repository, and the build context leaves out node_modules, dist and .git', () => {
    for (const copy of all.flatMap((stage) => args(stage, 'COPY'))) {
      if (copy.startsWith('--from=')) continue;
      const sources = copy.split(' ').slice(0, -1);
      for (const source of sources) expect(existsSync(join(ROOT, source)), source).toBe(true);
    }
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['node_modules', 'dist', '.git']) expect(ignored).toContain(entry);
  });

  it('every package the CLI bundles load is a production dependency (the image has no others)', () => {
    const bundles = ['cronbeat.cjs', 'cronbeat-full.cjs'].map((file) => join(ROOT, 'dist', file));
    for (const bundle of bundles) expect(existsSync(bundle), 'run `npm run build:agent` first').toBe(true);
    const loaded = new Set(bundles.flatMap((bundle) => [...readFileSync(bundle, 'utf8').matchAll(/(?:require|import)\("([^"./][^"]*)"\)/g)].map((m) => m[1])));
    const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const builtins = new Set(builtinModules);
    const packageOf = (name: string) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]);
    const missing = [...loaded].filter((name) => !name.startsWith('node:') && !builtins.has(name) && !(packageOf(name) in dependencies));
    expect(missing).toEqual([]);
  });
});

describe('the health check', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
  });
  afterAll(() => agent.stop());

  /** The HEALTHCHECK's own command, pointed at `port`. */
  function healthCheck(port: number) {
    const [instruction] = args(final, 'HEALTHCHECK');
    expect(instruction).toMatch(/--interval=\d+s --timeout=\d+s/);
    const command = JSON.parse(instruction.slice(instruction.indexOf('CMD ') + 4)) as string[];
    expect(command[0]).toBe('node');
    const script = command.slice(1).map((arg) => arg.replace('127.0.0.1:8787', `127.0.0.1:${port}`));
    // Asynchronous: the agent answering it runs in this process.
    return new Promise<number | null>((done) => spawn(process.execPath, script, { stdio: 'ignore', timeout: 10_000 }).on('exit', done));
  }

  it('passes against a running agent (GET /api/health, no token)', async () => {
    expect(await healthCheck(agent.port)).toBe(0);
  });

  it('fails where no agent answers', async () => {
    expect(await healthCheck(await closedPort())).toBe(1);
  });
});

describe('compose example', () => {
  // No YAML parser among our dependencies: the file is small and plain, so its lines are read as such.
  const compose = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');
  const setting = (key: string) => new RegExp(`^ {4}${key}: (.*)$`, 'm').exec(compose)?.[1];
  const listUnder = (key: string) => {
    const block = new RegExp(`^ {4}${key}:\\n((?: {6}.*\\n)+)`, 'm').exec(compose)?.[1] ?? '';
    return block
      .split('\n')
      .filter((line) => /^ {6}- /.test(line))
      .map((line) => line.replace(/^ {6}- /, '').replace(/^"|"$/g, ''));
  };

  it('builds this repository, keeps /data in a named volume and restarts the agent', () => {
    expect(compose).toMatch(/^services:\n {2}cronbeat:\n/m);
    expect(setting('build')).toBe('.');
    expect(setting('restart')).toBe('unless-stopped');
    expect(listUnder('volumes')).toEqual(['cronbeat-data:/data']);
    expect(compose).toMatch(/^volumes:\n {2}cronbeat-data:\s*$/m);
    expect(listUnder('ports')).toEqual(['8787:8787']);
  });

  it('runs a command `cronbeat serve` accepts', () => {
    const [command, ...flags] = JSON.parse(setting('command') ?? '[]') as string[];
    expect(command).toBe('serve');
    const help = spawnSync(process.execPath, [join(ROOT, 'dist', 'cronbeat.cjs'), 'serve', '--help'], { encoding: 'utf8' }).stdout;
    for (const flag of flags.filter((f) => f.startsWith('--'))) expect(help, flag).toContain(flag);
  });
});
