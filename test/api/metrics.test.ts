import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/cli';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

interface Family {
  name: string;
  help: string;
  type: string;
  metrics: Array<{ labels?: Record<string, string>; value: string }>;
}

let agent: TestAgent;
let readOnly: string;
beforeAll(async () => {
  agent = await startTestAgent();
  readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'prometheus', scope: 'read-only', now: Date.now() }).token;
});
afterAll(() => agent.stop());

const scrape = async (token = readOnly) => {
  const response = await agent.api('/metrics', { token });
  return { response, text: await response.text() };
};
const families = (text: string) => new Map((parsePrometheusTextFormat(text) as Family[]).map((f) => [f.name, f]));
const sampleOf = (family: Family | undefined, labels: Record<string, string>) =>
  family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

describe('GET /metrics', () => {
  it('parses as Prometheus text, with per monitor status, last pulse, last run and failures', async () => {
    const ping = agent.store.apiTokens.create({ companyId: 1, name: 'ping', scope: 'ping', now: Date.now() }).token;
    const pulse = (slug: string, path: string, headers: Record<string, string> = {}) =>
      fetch(`${agent.url}/api/pulse/key/${ping}/${slug}${path}?create=1&schedule=0+3+*+*+*&name=${encodeURIComponent(`Job "${slug}"\n`)}`, { method: 'POST', headers });
    await pulse('backup', '/start');
    await pulse('backup', '/0', { 'X-Cronbeat-Duration-Ms': '1500' });
    await pulse('report', '/3', { 'X-Cronbeat-Duration-Ms': '250' });

    const { response, text } = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const parsed = families(text);
    for (const name of parsed.keys()) expect(name).toMatch(/^cronbeat_[a-z_]+$/);
    for (const family of parsed.values()) if (family.type === 'COUNTER') expect(family.name).toMatch(/_total$/);

    const backup = { slug: 'backup' };
    const report = { slug: 'report' };
    expect(sampleOf(parsed.get('cronbeat_monitor_status'), { ...backup, status: 'monitoring' })?.value).toBe('1');
    expect(sampleOf(parsed.get('cronbeat_monitor_status'), { ...backup, status: 'failed' })?.value).toBe('0');
    expect(sampleOf(parsed.get('cronbeat_monitor_status'), { ...report, status: 'failed' })?.value).toBe('1');
    expect(sampleOf(parsed.get('cronbeat_monitor_up'), report)?.value).toBe('0');
    expect(sampleOf(parsed.get('cronbeat_monitor_last_run_duration_seconds'), backup)?.value).toBe('1.5');
    expect(sampleOf(parsed.get('cronbeat_monitor_last_exit_code'), backup)?.value).toBe('0');
    expect(sampleOf(parsed.get('cronbeat_monitor_last_exit_code'), report)?.value).toBe('3');
    expect(sampleOf(parsed.get('cronbeat_monitor_failures_total'), report)?.value).toBe('1');
    expect(sampleOf(parsed.get('cronbeat_monitor_failures_total'), backup)?.value).toBe('0');
    const since = Number(sampleOf(parsed.get('cronbeat_monitor_seconds_since_last_pulse'), backup)?.value);
    expect(since).toBeGreaterThanOrEqual(0);
    expect(since).toBeLessThan(60);
    // A name with quotes and a newline survives the label escaping.
    expect(sampleOf(parsed.get('cronbeat_monitor_up'), backup)?.labels?.monitor).toBe('Job "backup"');
    expect(Number(parsed.get('cronbeat_agent_start_time_seconds')?.metrics[0].value)).toBeLessThanOrEqual(Date.now() / 1000);
    expect(parsed.get('cronbeat_agent_up')?.metrics[0].value).toBe('1');
  });

  it('counts each channel\'s waiting and failed deliveries and the age of the oldest', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hook`;
    const channel = await (await agent.api('/api/channels', { method: 'POST', json: { name: 'ops hook', kind: 'webhook', settings: { url } } })).json();
    expect(channel.id).toBeGreaterThan(0);
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'alerting', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
    await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
    const parsed = families((await scrape()).text);
    const labels = { channel: 'ops hook', kind: 'webhook' };
    const waiting = Number(sampleOf(parsed.get('cronbeat_channel_deliveries_waiting'), labels)?.value);
    const failed = Number(sampleOf(parsed.get('cronbeat_channel_deliveries_failed_total'), labels)?.value);
    expect(waiting + failed).toBeGreaterThanOrEqual(1);
    expect(Number(sampleOf(parsed.get('cronbeat_channel_oldest_waiting_delivery_age_seconds'), labels)?.value)).toBeGreaterThanOrEqual(0);
  });

  it('is for read-only and full keys only, and shows only the key\'s company', async () => {
    expect((await scrape(agent.token)).response.status).toBe(200);
    expect((await agent.api('/metrics', { token: null })).status).toBe(401);
    const ping = agent.store.apiTokens.create({ companyId: 1, name: 'p', scope: 'ping', now: Date.now() }).token;
    expect((await scrape(ping)).response.status).toBe(403);
    const other = families((await scrape(agent.tokenFor(2))).text);
    expect(other.get('cronbeat_monitor_up')?.metrics ?? []).toEqual([]);
  });
});
