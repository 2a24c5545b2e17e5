import { mkdirSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRendererDir } from '../../agent/api/routes/static';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

// A tiny stand-in build, so these tests do not depend on `npm run build:renderer`.
const rendererDir = tempDir('cronbeat-renderer-');
mkdirSync(join(rendererDir, 'assets'));
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Cronbeat</title>');
writeFileSync(join(rendererDir, 'assets', 'index-abc123.js'), 'console.log(1)');
writeFileSync(join(rendererDir, 'favicon.svg'), '<svg/>');
// A script big enough to be worth compressing (a real build's is about 670 kB).
const bigScript = Array.from({ length: 4000 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n');
writeFileSync(join(rendererDir, 'assets', 'index-big456.js'), bigScript);

/** A GET (or HEAD) over node:http, which, unlike fetch, leaves the body as it came. */
function raw(path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(agent.url + path, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ rendererDir });
});
afterAll(() => agent.stop());

const get = (path: string, init?: RequestInit) => fetch(agent.url + path, init);

describe('the dashboard files', () => {
  it('serves index.html at / with a strict policy and no caching', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<title>Cronbeat</title>');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('caches hashed assets for a year and answers a revalidation with 304', async () => {
    const response = await get('/assets/index-abc123.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // fetch adds "Cache-Control: no-cache" to conditional requests unless told otherwise, as browsers revalidating do not.
    const headers = { 'If-None-Match': response.headers.get('etag')!, 'Cache-Control': 'max-age=0' };
    const again = await get('/assets/index-abc123.js', { headers });
    expect(again.status).toBe(304);
  });

  it('sends a big script as Brotli or gzip to a client that takes it, and as it is to one that does not', async () => {
    const br = await raw('/assets/index-big456.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(bigScript.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(bigScript);

    const gz = await raw('/assets/index-big456.js', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(bigScript);
    expect(gz.headers.etag).not.toBe(br.headers.etag);

    for (const acceptEncoding of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await raw('/assets/index-big456.js', acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(bigScript);
    }

    // A revalidation in the same encoding is a 304; HEAD says the compressed length without a body.
    const again = await raw('/assets/index-big456.js', { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    const head = await raw('/assets/index-big456.js', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(String(br.body.length));
    expect(head.body.length).toBe(0);
    // Tiny files go as they are.
    expect((await raw('/favicon.svg', { 'Accept-Encoding': 'br' })).headers['content-encoding']).toBeUndefined();
  });

  it('falls back to index.html for app paths, but not for /api or missing assets', async () => {
    const deep = await get('/monitors/12');
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<title>Cronbeat</title>');
    const api = await get('/api/nothing-here');
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ message: 'Not found.' });
    expect((await get('/assets/index-gone.js')).status).toBe(404);
    expect((await get('/favicon.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('answers an API path written with a double slash (a base URL ending in /) with a JSON 404 saying so, never the dashboard', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'slashes', timezone: 'UTC', schedule: '0 3 * * *', duration: 30 } })).json();
    for (const [path, method] of [
      [`//api/pulse/${monitor.token}`, 'GET'],
      [`//api/pulse/${monitor.token}`, 'HEAD'],
      [`//api/pulse/${monitor.token}/fail`, 'GET'],
      ['//api/monitors', 'GET'],
      ['///api//monitors', 'GET'],
      ['//api', 'GET'],
      [`//api/pulse/${monitor.token}`, 'POST'],
    ]) {
      const answer = await get(path, { method, headers: { Authorization: `Bearer ${agent.token}` } });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      if (method !== 'HEAD') expect((await answer.json()).message).toMatch(/double slash/);
    }
    expect(agent.store.pulses.count(monitor.id)).toBe(0);
    // A path of the dashboard with a double slash is still the dashboard.
    expect(await (await get('//monitors/12')).text()).toContain('<title>Cronbeat</title>');
  });

  it('never serves a file outside its folder', async () => {
    for (const path of ['/..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/etc/passwd', '/%00', '/%E0%A4%A']) {
      const response = await get(path);
      expect([200, 404]).toContain(response.status);
      const text = await response.text();
      expect(text).not.toContain('root:');
      if (response.status === 200) expect(text).toContain('<title>Cronbeat</title>');
    }
  });

  it('answers HEAD without a body and refuses other methods with the API\'s JSON 404', async () => {
    const head = await get('/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String('<!doctype html><title>Cronbeat</title>'.length));
    const post = await get('/', { method: 'POST' });
    expect(post.status).toBe(404);
  });

  it('finds dist/renderer next to a bundle or above the sources, and nothing when there is none', () => {
    const root = tempDir('cronbeat-layout-');
    mkdirSync(join(root, 'dist', 'renderer'), { recursive: true });
    writeFileSync(join(root, 'dist', 'renderer', 'index.html'), '');
    mkdirSync(join(root, 'agent', 'api', 'routes'), { recursive: true });
    expect(findRendererDir(join(root, 'dist'))).toBe(join(root, 'dist', 'renderer'));
    expect(findRendererDir(join(root, 'agent', 'api', 'routes'))).toBe(join(root, 'dist', 'renderer'));
    expect(findRendererDir(tempDir('cronbeat-empty-'))).toBeNull();
  });
});

describe('without a build', () => {
  it('says how to build the dashboard instead of failing', async () => {
    const unbuilt = await startTestAgent({ rendererDir: join(tempDir(), 'missing') });
    try {
      const response = await fetch(`${unbuilt.url}/`);
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('npm run build:renderer');
    } finally {
      await unbuilt.stop();
    }
  });
});
