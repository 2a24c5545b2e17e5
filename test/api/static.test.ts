import { mkdirSync, writeFileSync } from 'node:fs';
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
