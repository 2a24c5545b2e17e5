import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, tempFolder } from '../helpers/cli';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { makeLeaf } from '../engine/certificates/tls-fixtures';

/*
 * The Caddy and nginx snippets of docs/deploy.md, as written there (only the ports, the
 * certificate and the files a test may write changed), in front of a real agent started with
 * --trust-proxy and --public-url. Skipped where the proxy is not installed (Debian: nginx-light, caddy).
 */

const DOCS = readFileSync(resolve(__dirname, '../../docs/deploy.md'), 'utf8');
const snippet = (language: string) => new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(DOCS)![1];
const installed = (program: string) => spawnSync(program, ['-v'], { stdio: 'ignore' }).error === undefined;
const PUBLIC = 'cronbeat.example.com';

interface Reply {
  status: number;
  body: string;
}

/** An HTTPS request to the proxy on 127.0.0.1 for the public name (SNI and Host), trusting its test certificate. */
function viaProxy(port: number, path: string, headers: Record<string, string> = {}, readFor?: number): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, servername: PUBLIC, headers: { Host: PUBLIC, ...headers }, rejectUnauthorized: false, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
        const done = () => resolvePromise({ status: response.statusCode ?? 0, body });
        response.on('end', done);
        if (readFor !== undefined) setTimeout(() => (outgoing.destroy(), done()), readFor);
      },
    );
    outgoing.on('error', (error) => (readFor === undefined ? reject(error) : undefined));
    outgoing.end();
  });
}

/** What a proxy in front of the agent must do: answer, say https in links, stream events as they happen. */
function proxyBehaviour(name: string, start: (agentPort: number, dir: string) => Promise<{ port: number; process: ChildProcess }>) {
  let agent: TestAgent;
  let proxy: { port: number; process: ChildProcess };
  beforeAll(async () => {
    agent = await startTestAgent({ trustProxy: true, publicUrl: `https://${PUBLIC}` });
    proxy = await start(agent.port, tempFolder(`cronbeat-${name}-`));
    // Proxies take a moment to listen (Caddy longer): ask until it answers.
    const end = Date.now() + 15_000;
    while ((await viaProxy(proxy.port, '/api/health').catch(() => null))?.status !== 200) {
      if (Date.now() > end) throw new Error(`${name} did not answer`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 30_000);
  afterAll(async () => {
    proxy?.process.kill('SIGTERM');
    await agent?.stop();
  });

  it('passes the health check and the API on, with https links under the public name', async () => {
    expect(await viaProxy(proxy.port, '/api/health')).toEqual({ status: 200, body: '{"status":"ok"}' });
    await agent.api('/api/monitors', { method: 'POST', json: { name: 'backup', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } });
    const reply = await viaProxy(proxy.port, '/api/monitors', { Authorization: `Bearer ${agent.token}` });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)[0].pulse_url).toMatch(new RegExp(`^https://${PUBLIC.replace(/\./g, '\\.')}/api/pulse/`));
  });

  it('streams /api/events without buffering: an event arrives while the stream is open', async () => {
    const reading = viaProxy(proxy.port, '/api/events', { Authorization: `Bearer ${agent.token}`, Accept: 'text/event-stream' }, 2500);
    await new Promise((r) => setTimeout(r, 700));
    agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 42 });
    const { status, body } = await reading;
    expect(status).toBe(200);
    expect(body).toContain('data: {"type":"monitor.changed","monitorId":42}');
  });
}

/** A self-signed certificate for the public name, written where the proxy reads it. */
function certificate(dir: string): { cert: string; key: string } {
  const leaf = makeLeaf({ names: [PUBLIC] });
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  writeFileSync(cert, leaf.certPem);
  writeFileSync(key, leaf.keyPem);
  return { cert, key };
}

function started(program: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  child.stderr!.on('data', () => {});
  return child;
}

describe.skipIf(!installed('nginx'))('nginx, as docs/deploy.md configures it', () => {
  proxyBehaviour('nginx', async (agentPort, dir) => {
    const port = await closedPort();
    const { cert, key } = certificate(dir);
    const server = snippet('nginx')
      .replace('listen 443 ssl;', `listen 127.0.0.1:${port} ssl;`)
      .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${cert};`)
      .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${key};`)
      .replace(/127\.0\.0\.1:8787/g, `127.0.0.1:${agentPort}`);
    for (const folder of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, folder));
    writeFileSync(
      join(dir, 'nginx.conf'),
      `daemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents { worker_connections 64; }\nhttp {\n  access_log off;\n` +
        ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((f) => `  ${f === 'body' ? 'client_body' : f}_temp_path ${dir}/${f};\n`).join('') +
        `${server}}\n`,
    );
    return { port, process: started('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir]) };
  });
});

describe.skipIf(!installed('caddy'))('Caddy, as docs/deploy.md configures it', () => {
  proxyBehaviour('caddy', async (agentPort, dir) => {
    const port = await closedPort();
    const { cert, key } = certificate(dir);
    const site = snippet('caddyfile')
      .replace(`${PUBLIC} {`, `https://${PUBLIC}:${port} {\n\ttls ${cert} ${key}`)
      .replace('127.0.0.1:8787', `127.0.0.1:${agentPort}`);
    writeFileSync(join(dir, 'Caddyfile'), `{\n\tadmin off\n\tauto_https disable_redirects\n}\n${site}`);
    const env = { ...process.env, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, HOME: dir };
    return { port, process: started('caddy', ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], env) };
  });
});
