import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A pulse body sent compressed (Content-Encoding, as an HTTP client library may send a job's
 * output) was kept as its compressed bytes, shown as text in the run history and the alert. It is
 * kept decompressed now, inflated no further than the 100 KB a body keeps; one that cannot be
 * decompressed is kept as a line saying so. The pulse counts either way.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(async () => {
  await agent.stop();
});

async function monitor() {
  return (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
}

async function sent(path: string, body: Buffer, coding: string) {
  return fetch(`${agent.url}/api/pulse/${path}`, { method: 'POST', body: new Uint8Array(body), headers: { 'Content-Encoding': coding, 'Content-Type': 'text/plain' } });
}

async function newestPulse(id: number) {
  const [newest] = (await (await agent.api(`/api/monitors/${id}/pulses`)).json()).data;
  return newest;
}

describe('a compressed pulse body', () => {
  const output = 'backup done: 42 files\nnothing to prune\n';

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('under %s is kept as the text it compresses, and the pulse counts', async (coding, compress) => {
    const m = await monitor();
    const response = await sent(`${m.token}/0`, compress(Buffer.from(output)), coding);
    expect(response.status).toBe(200);
    expect(await newestPulse(m.id)).toMatchObject({ kind: 'success', body: output, body_truncated: false });
    expect((await (await agent.api(`/api/monitors/${m.id}`)).json()).status).toBe('monitoring');
  });

  it('inflated past 100 KB keeps the first 100 KB and says the rest was cut, without inflating the rest', async () => {
    const m = await monitor();
    // 20 MB of output compressed to 20 KB (a bigger one inflates to gigabytes), its checksum at the
    // end broken: were it inflated to the end, the pulse would keep "did not decompress".
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 'y'));
    bomb[bomb.length - 6] ^= 0xff;
    expect(bomb.length).toBeLessThan(100 * 1024);
    const response = await sent(`${m.token}/fail`, bomb, 'gzip');
    expect(response.status).toBe(200);
    const pulse = await newestPulse(m.id);
    expect(pulse).toMatchObject({ kind: 'fail', body_truncated: true });
    expect(pulse.body).toBe(`${'y'.repeat(100 * 1024)}\n[… the rest cut; Cronbeat keeps the first 102400 bytes of a pulse body]`);
    // The connection was left fit for the next request.
    expect((await fetch(`${agent.url}/api/pulse/${m.token}`)).status).toBe(200);
  });

  it('under a coding that cannot be undone is kept as a line saying so, and the pulse counts', async () => {
    const m = await monitor();
    expect((await sent(`${m.token}/1`, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]), 'zstd')).status).toBe(200);
    expect(await newestPulse(m.id)).toMatchObject({
      kind: 'fail',
      exit_code: 1,
      body: '[The output was sent compressed (Content-Encoding: zstd) which Cronbeat does not read (it reads gzip, deflate and br); it was not kept.]',
    });
    expect((await sent(`${m.token}/0`, Buffer.from('not gzip at all'), 'gzip')).status).toBe(200);
    expect(await newestPulse(m.id)).toMatchObject({
      kind: 'success',
      body: '[The output was sent compressed (Content-Encoding: gzip) but did not decompress as such; it was not kept.]',
    });
    expect((await (await agent.api(`/api/monitors/${m.id}`)).json()).status).toBe('monitoring');
  });

  it('through a job\'s own line (a ping key) is kept decompressed too', async () => {
    const key = agent.store.apiTokens.create({ companyId: 1, name: 'jobs', scope: 'ping', now: Date.now() }).token;
    expect((await sent(`key/${key}/gzip-backup?create=1&schedule=0+3+*+*+*`, gzipSync(Buffer.from(output)), 'gzip')).status).toBe(201);
    const listed = (await (await agent.api('/api/monitors')).json()).find((m: { name: string }) => m.name === 'gzip-backup');
    expect(await newestPulse(listed.id)).toMatchObject({ body: output });
  });
});
