import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, NOTIFIABLE_TYPE } from '../../agent/domain/alerts/notificationKinds';
import { seedDatabase } from '../bench/seed';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/*
 * /metrics for many monitors: read a page at a time (other requests answered in between), the same
 * text however it is cut into pages, and compressed when the scraper accepts it.
 */

const MONITORS = 10_000;
const NOW = Date.parse('2026-03-02T10:00:00Z');

let agent: TestAgent;
let token: string;
let addFailures: (monitorIds: number[]) => void;
beforeAll(async () => {
  const dataDir = tempDir();
  seedDatabase(dataDir, { monitors: MONITORS, monitorsOfCompany1: MONITORS, servers: 0, notifications: 0, now: NOW });
  // A fixed clock: every scrape of the same data is the same text, byte for byte.
  agent = await startTestAgent({ dataDir, clock: () => NOW });
  token = agent.store.apiTokens.create({ companyId: 1, name: 'prometheus', scope: 'read-only', now: NOW }).token;
  // Monitors far apart (different pages) with tags, a quote, and failures.
  agent.store.db.prepare("UPDATE monitors SET tags = 'db nightly', name = 'say \"hi\"' WHERE id IN (1, 777, 9999)").run();
  const fail = agent.store.db.prepare(
    `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, created_at, updated_at)
     VALUES (lower(hex(randomblob(16))), @type, @notifiableType, 1, json_object('type_id', @monitorId), @now, @now)`,
  );
  addFailures = (monitorIds) => {
    for (const monitorId of monitorIds) fail.run({ type: NOTIFICATION_KINDS.monitorFailed.type, notifiableType: NOTIFIABLE_TYPE, monitorId, now: NOW });
  };
  addFailures([1, 777, 777, 9999, 9999, 9999]);
}, 60_000);
afterAll(() => agent.stop());

const families2 = (answer: Raw) =>
  new Map((parsePrometheusTextFormat(answer.body.toString('utf8')) as Array<{ name: string; metrics: Array<{ labels?: Record<string, string>; value: string }> }>).map((f) => [f.name, f]));

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}, onHeaders?: () => void): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(`${agent.url}${path}`, { headers: { Authorization: `Bearer ${token}`, ...headers } }, (response) => {
      onHeaders?.();
      const chunks: Buffer[] = [];
      response
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
        .on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('GET /metrics at 10,000 monitors', () => {
  it('sends every monitor once per family, each family in one run of lines, with its failures and tags', async () => {
    const plain = await get('/metrics');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const text = plain.body.toString('utf8');
    // A family's samples must be together, after its HELP and TYPE, for Prometheus to take them.
    const order = text.split('\n').filter((line) => line && !line.startsWith('#')).map((line) => /^[a-z_]+/.exec(line)![0]);
    const runs = order.filter((name, index) => index === 0 || order[index - 1] !== name);
    expect(new Set(runs).size).toBe(runs.length);
    const families = new Map(
      (parsePrometheusTextFormat(text) as Array<{ name: string; metrics: Array<{ labels?: Record<string, string>; value: string }> }>).map((f) => [f.name, f]),
    );
    expect(families.get('cronbeat_monitor_status')?.metrics).toHaveLength(MONITORS * 5);
    const up = families.get('cronbeat_monitor_up')!.metrics;
    expect(up.map((m) => Number(m.labels?.monitor_id))).toEqual(Array.from({ length: MONITORS }, (_, i) => i + 1));
    for (const id of ['1', '777', '9999']) {
      const sample = up.find((m) => m.labels?.monitor_id === id);
      expect(sample?.labels).toEqual({ monitor_id: id, monitor: 'say "hi"', slug: '', tags: 'db,nightly' });
    }
    const failures = families.get('cronbeat_monitor_failures_total')!.metrics;
    expect(failures).toHaveLength(MONITORS);
    const failuresOf = (id: string) => failures.find((m) => m.labels?.monitor_id === id)?.value;
    expect([failuresOf('1'), failuresOf('2'), failuresOf('777'), failuresOf('9999'), failuresOf('10000')]).toEqual(['1', '0', '2', '3', '0']);

    // Counted again from the failures added since the last scrape: a counter that only grows.
    addFailures([777, 10_000]);
    const again = families2(await get('/metrics'));
    const failuresAgain = (id: string) => again.get('cronbeat_monitor_failures_total')!.metrics.find((m) => m.labels?.monitor_id === id)?.value;
    expect([failuresAgain('1'), failuresAgain('777'), failuresAgain('9999'), failuresAgain('10000')]).toEqual(['1', '3', '3', '1']);
  });

  it('is gzip for a scraper that accepts it (Prometheus does), Brotli when asked, the same text either way', async () => {
    const plain = await get('/metrics');
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    const gzip = await get('/metrics', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 10);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    const br = await get('/metrics', { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const refused = await get('/metrics', { 'Accept-Encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(plain.body)).toBe(true);
  });

  it('answers /api/health while a scrape is being read: health answers come before the scrape\'s own', async () => {
    let scrapeAnswered = false;
    const scrape = get('/metrics', { 'Accept-Encoding': 'gzip' }, () => (scrapeAnswered = true));
    // One health question after the other until the scrape's answer starts: with the scrape read in
    // one go, none can be answered in between.
    let answeredBefore = 0;
    while (!scrapeAnswered) {
      const health = await get('/api/health');
      expect(health.status).toBe(200);
      if (!scrapeAnswered) answeredBefore++;
    }
    expect((await scrape).status).toBe(200);
    expect(answeredBefore).toBeGreaterThanOrEqual(3);
  });
});
