import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWithHost } from '../helpers/rawHttp';
import { startTestAgent, TIMESTAMP, UUID_V7, type TestAgent } from '../helpers/testAgent';
import { NOTIFICATION_KINDS } from '../../agent/domain/alerts/notificationKinds';
import { monitorFailedData } from '../../agent/domain/alerts/monitorNotifications';
import { toApiTimestamp } from '../../agent/domain/time/apiTimestamps';
import type { Alert } from '../../agent/domain/alerts/alert';

let agent: TestAgent;
const BASE_TIME = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

/** A failed monitor named `name`, as a MonitorFailedNotification tells it. */
function failedMonitorData(id: number, name: string) {
  return monitorFailedData({
    id, name, project_id: null, token: '5b1b5c4e-1f0e-4f7a-9a53-0b8e3f2c9d10', timezone: 'UTC', schedule: '0 * * * *',
    duration: 5, last_run_at: BASE_TIME, is_alerted: 1, alert_reason: 'No pulse', reason: null,
  });
}

/** The alert of such a failure, as data. */
const failedAlert = (at: number): Alert => ({
  event: 'monitor.failed',
  at: toApiTimestamp(at),
  reason: { kind: 'failed', exit_code: null },
  monitor: null,
  server: null,
  run: null,
  expected_at: null,
});

/** Gives company `companyId` exactly `total` notifications of the spec's kinds, one a minute apart. */
function seed(companyId: number, total: number) {
  agent.store.companies.ensure(companyId, BASE_TIME);
  for (let i = 0; i < total; i++) {
    agent.store.notifications.create({
      companyId,
      type: NOTIFICATION_KINDS.monitorFailed.type,
      data: failedMonitorData(i, `job ${i}`),
      alert: failedAlert(BASE_TIME + i * 60_000),
      now: BASE_TIME + i * 60_000,
    });
  }
  return agent.tokenFor(companyId);
}

const TOTALS = [0, 1, 10, 11, 25];
const companyOf = (total: number) => 100 + total;
const tokens = new Map<number, string>();
beforeAll(() => {
  for (const total of TOTALS) tokens.set(total, seed(companyOf(total), total));
});

async function page(total: number, query: string) {
  const response = await agent.api(`/api/notifications${query}`, { token: tokens.get(total) });
  expect(response.status).toBe(200);
  return response.json();
}

describe('notification pagination', () => {
  for (const total of TOTALS) {
    for (const perPage of [1, 10, 100]) {
      it(`total ${total}, per_page ${perPage}: every page is right`, async () => {
        const lastPage = Math.max(1, Math.ceil(total / perPage));
        const seen: string[] = [];
        for (let p = 1; p <= lastPage + 1; p++) {
          const body = await page(total, `?per_page=${perPage}&page=${p}`);
          const origin = agent.url;
          const url = (n: number) => `${origin}/api/notifications?per_page=${perPage}&page=${n}`;
          const expectedCount = Math.max(0, Math.min(perPage, total - (p - 1) * perPage));
          expect(body).toEqual({
            current_page: p,
            data: expect.any(Array),
            first_page_url: url(1),
            from: expectedCount ? (p - 1) * perPage + 1 : null,
            last_page: lastPage,
            last_page_url: url(lastPage),
            links: [
              { url: p > 1 ? url(p - 1) : null, label: '&laquo; Previous', active: false },
              ...Array.from({ length: lastPage }, (_, i) => ({ url: url(i + 1), label: String(i + 1), active: i + 1 === p })),
              { url: p < lastPage ? url(p + 1) : null, label: 'Next &raquo;', active: false },
            ],
            next_page_url: p < lastPage ? url(p + 1) : null,
            path: `${origin}/api/notifications`,
            per_page: perPage,
            prev_page_url: p > 1 ? url(p - 1) : null,
            to: expectedCount ? (p - 1) * perPage + expectedCount : null,
            total,
          });
          expect(body.data).toHaveLength(expectedCount);
          seen.push(...body.data.map((n: { id: string }) => n.id));
        }
        expect(new Set(seen).size).toBe(total);
      });
    }
  }

  it('defaults to page 1 and 10 per page, newest first, URLs carrying only page', async () => {
    const body = await page(25, '');
    expect(body.current_page).toBe(1);
    expect(body.per_page).toBe(10);
    expect(body.next_page_url).toBe(`${agent.url}/api/notifications?page=2`);
    const times = body.data.map((n: { created_at: string }) => n.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(body.data[0].data.monitor_name).toBe('job 24');
  });

  it('uses the request Host header for its URLs', async () => {
    // localhost rather than the 127.0.0.1 of agent.url; another host is refused (DNS rebinding guard).
    const body = await getWithHost(`${agent.url}/api/notifications`, `localhost:${agent.port}`, tokens.get(1)!);
    expect(JSON.parse(body).path).toBe(`http://localhost:${agent.port}/api/notifications`);
  });

  it('shows each notification with the spec fields and types', async () => {
    const [notification] = (await page(1, '')).data;
    expect(Object.keys(notification)).toEqual(['id', 'type', 'notifiable_type', 'notifiable_id', 'data', 'read_at', 'created_at', 'updated_at']);
    expect(notification.id).toMatch(UUID_V7);
    expect(notification.notifiable_type).toBe('App\\Models\\Company');
    expect(notification.notifiable_id).toBe(companyOf(1));
    expect(notification.read_at).toBeNull();
    expect(notification.created_at).toMatch(TIMESTAMP);
  });

  it.each([
    ['page', '?page=0'],
    ['page', '?page=abc'],
    ['page', '?page=-1'],
    ['per_page', '?per_page=0'],
    ['per_page', '?per_page=101'],
    ['per_page', '?per_page=1.5'],
  ])('answers 422 naming %s for %s', async (field, query) => {
    const response = await agent.api(`/api/notifications${query}`, { token: tokens.get(1) });
    expect(response.status).toBe(422);
    expect(Object.keys((await response.json()).errors)).toEqual([field]);
  });

  it.each([
    ['?page=-1', 'The page field must be at least 1.'],
    ['?page=99999999999999999999', 'The page field must not be greater than 100000000.'],
    ['?per_page=1000000', 'The per page field must not be greater than 100.'],
    ['?page=1e3', 'The page field must be an integer.'],
  ])('says what is wrong with %s', async (query, message) => {
    const response = await agent.api(`/api/notifications${query}`, { token: tokens.get(1) });
    expect(response.status).toBe(422);
    expect(Object.values((await response.json()).errors)).toEqual([[message]]);
  });

  it('never shows another company\'s notifications', async () => {
    const body = await page(0, '?per_page=100');
    expect(body.total).toBe(0);
    expect(body.data).toEqual([]);
  });
});
