import { execFile, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { closedPort, tempFolder } from '../helpers/cli';

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

  it('compiles production dependencies from the lock file in a stage of their own, from the registry alone', () => {
    const deps = all.find((stage) => /\bAS deps$/.test(args(stage, 'FROM')[0]));
    expect(deps, 'a stage named deps').toBeDefined();
    const runs = args(deps!, 'RUN').join(' ');
    expect(runs).toMatch(/npm ci --omit=dev\b/);
    expect(runs).not.toMatch(/npm install\b/);
    expect(args(deps!, 'COPY')).toContain('package.json package-lock.json ./');
    // better-sqlite3 from source, against the image's own Node headers: no prebuilt addon, no header download.
    expect(runs).toMatch(/apt-get install -y --no-install-recommends python3 make g\+\+/);
    expect(runs).toMatch(/npm rebuild better-sqlite3/);
    expect(args(deps!, 'ENV').join(' ')).toMatch(/npm_config_build_from_source=true/);
    expect(args(deps!, 'ENV').join(' ')).toMatch(/npm_config_nodedir=\/usr\/local\b/);
  });

  it('installs nothing in the run stage: it copies the compiled node_modules and the bundle', () => {
    expect(args(final, 'RUN').join(' ')).not.toMatch(/\bnpm\b|\bnpx\b|apt-get|curl|wget/);
    expect(args(final, 'COPY')).toContain('--from=deps /app/node_modules ./node_modules');
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

/*
 * The run stage's file layout, laid out without a Docker engine: each COPY of the last stage into a
 * folder standing for the image's root, from the stage it names (build: this checkout's dist/,
 * which `npm test` built with the same two scripts; deps: `npm ci --omit=dev --ignore-scripts`
 * from the lock file, as the deps stage runs it), then the agent started as ENTRYPOINT and CMD say,
 * with the stage's ENV. Not done here: better-sqlite3 is not compiled (the addon this checkout
 * built for the same version and Node is copied in), and the base image's Node is this machine's.
 */
describe('the run stage’s file layout', () => {
  const image = tempFolder('cronbeat-image-');
  const app = join(image, 'app');
  let agent: ReturnType<typeof spawn> | undefined;
  afterAll(async () => {
    if (agent && agent.exitCode === null) {
      agent.kill('SIGTERM');
      await new Promise((done) => agent!.once('exit', done));
    }
    rmSync(image, { recursive: true, force: true });
  });

  beforeAll(async () => {
    const deps = join(image, 'deps-stage');
    mkdirSync(deps);
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, file), join(deps, file));
    const npm = existsSync(join(dirname(process.execPath), 'npm')) ? join(dirname(process.execPath), 'npm') : 'npm';
    // Without the npm_* variables of an `npm test` around us, which would point npm at this checkout.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
    await promisify(execFile)(npm, ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: deps, env, maxBuffer: 16 << 20 });
    const addon = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    mkdirSync(dirname(join(deps, addon)), { recursive: true });
    copyFileSync(join(ROOT, addon), join(deps, addon));

    const from: Record<string, { root: string; workdir: string }> = { build: { root: ROOT, workdir: '/src' }, deps: { root: deps, workdir: '/app' } };
    mkdirSync(app);
    for (const copy of args(final, 'COPY')) {
      const words = copy.split(' ');
      const stage = words[0].startsWith('--from=') ? from[words.shift()!.slice('--from='.length)] : { root: ROOT, workdir: '' };
      const target = join(app, words.pop()!);
      for (const source of words) {
        const local = join(stage.root, stage.workdir ? source.replace(new RegExp(`^${stage.workdir}/`), '') : source);
        cpSync(local, words.length > 1 || target.endsWith('/') ? join(target, source.split('/').pop()!) : target, { recursive: true });
      }
    }
    mkdirSync(join(image, 'usr', 'local', 'bin'), { recursive: true });
    symlinkSync(join(app, 'dist', 'cronbeat.cjs'), join(image, 'usr', 'local', 'bin', 'cronbeat'));
  }, 300_000);

  it('holds the bundle, the dashboard and production dependencies only', () => {
    for (const file of ['dist/cronbeat.cjs', 'dist/cronbeat-full.cjs', 'dist/renderer/index.html', 'node_modules/better-sqlite3/package.json', 'node_modules/koa/package.json']) {
      expect(existsSync(join(app, file)), file).toBe(true);
    }
    for (const dev of ['electron', 'vite', 'vitest', 'esbuild', 'react']) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);
    expect(existsSync(join(app, 'agent')) || existsSync(join(app, 'renderer'))).toBe(false);
  });

  it('runs the agent as ENTRYPOINT and CMD say, with the stage’s ENV: the dashboard at /, the health check passes', async () => {
    const env: Record<string, string> = {};
    for (const pair of args(final, 'ENV').join(' ').split(' ')) {
      const [name, value] = pair.split('=');
      env[name] = value === '/data' ? join(image, 'data') : value;
    }
    mkdirSync(env.CRONBEAT_DATA_DIR);
    const [entrypoint] = JSON.parse(args(final, 'ENTRYPOINT')[0]) as string[];
    // The container's 0.0.0.0:8787, here on loopback and a free port.
    const cmd = (JSON.parse(args(final, 'CMD')[0]) as string[]).map((word) => (word === '0.0.0.0' ? '127.0.0.1' : word === '8787' ? '0' : word));
    agent = spawn(process.execPath, [join(image, 'usr', 'local', 'bin', entrypoint), ...cmd], { cwd: app, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolveUrl, reject) => {
      createInterface({ input: agent!.stdout! }).on('line', (line) => {
        const match = /^Cronbeat listening on (http:\/\/\S+)$/.exec(line);
        if (match) resolveUrl(match[1]);
      });
      agent!.once('exit', (code) => reject(new Error(`the agent exited with ${code}`)));
    });
    const page = await fetch(url + '/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Cronbeat</title>');
    expect((await fetch(url + '/api/health')).status).toBe(200);
    expect(existsSync(join(env.CRONBEAT_DATA_DIR, 'cronbeat.db'))).toBe(true);
  });
});
