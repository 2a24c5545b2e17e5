import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, TIMESTAMP, type TestAgent } from '../helpers/testAgent';
import { isQuiet, quietAfter, quietAfterOutage } from '../../agent/domain/servers/quietAfter';

let now = Date.UTC(2026, 10, 23, 12, 0, 0);
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
  await agent.api('/api/servers', { method: 'POST', json: { name: 'web', ip_address: '10.0.0.7', identifier: 'web-1' } });
});
afterAll(() => agent.stop());

const heartbeat = (json: unknown, token?: string | null) => agent.api('/api/servers/heartbeat', { method: 'POST', json, token });

describe('POST /api/servers/heartbeat', () => {
  it('records the report and answers the server with its report fields', async () => {
    const response = await heartbeat({ server_id: 'web-1', interval_seconds: 60, jobs: 4 });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ identifier: 'web-1', report_interval_seconds: 60, watched_jobs: 4, quiet: false });
    expect(body.last_report_at).toMatch(TIMESTAMP);
    expect((await (await agent.api(`/api/servers/${body.id}`)).json()).last_report_at).toBe(body.last_report_at);
  });

  it('shows the server as quiet after two missed reports and a minute', async () => {
    const list = async () => ((await (await agent.api('/api/servers')).json()) as Array<{ quiet: boolean }>)[0]!;
    now += 180_000;
    expect((await list()).quiet).toBe(false);
    now += 1_000;
    expect((await list()).quiet).toBe(true);
  });

  it('answers 404 for an unknown identifier, 401 without a token, 422 naming the field', async () => {
    expect((await heartbeat({ server_id: 'no-such' })).status).toBe(404);
    expect((await heartbeat({ server_id: 'web-1' }, null)).status).toBe(401);
    for (const [field, body] of [
      ['server_id', {}],
      ['interval_seconds', { server_id: 'web-1', interval_seconds: 0 }],
      ['jobs', { server_id: 'web-1', jobs: 'many' }],
    ] as const) {
      const response = await heartbeat(body);
      expect(response.status, field).toBe(422);
      expect(Object.keys((await response.json()).errors), field).toEqual([field]);
    }
  });
});

describe('the quiet rule', () => {
  it('allows two intervals and a minute; an hour for a watcher that never said its interval', () => {
    expect(quietAfter(0, 60)).toBe(180_000);
    expect(quietAfter(0, null)).toBe(7_260_000);
    expect(isQuiet({ quiet_alert_at: quietAfter(0, 60) }, 180_000)).toBe(false);
    expect(isQuiet({ quiet_alert_at: quietAfter(0, 60) }, 180_001)).toBe(true);
    // Cronbeat down from 10 s to 30 min: the watcher's silence counts from its return.
    expect(quietAfterOutage(quietAfter(0, 60), 60, { from: 10_000, to: 1_800_000 })).toBe(1_980_000);
    // Already quiet before the outage began, or quiet only after it ended: unchanged.
    expect(quietAfterOutage(quietAfter(0, 60), 60, { from: 200_000, to: 1_800_000 })).toBeNull();
    expect(quietAfterOutage(quietAfter(0, 60), 60, { from: 10_000, to: 100_000 })).toBeNull();
  });
});
