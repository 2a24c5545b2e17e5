import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rollBackTo } from '../helpers/rollBack';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/*
 * A monitor failed before alert-after existed was alerted: after the upgrade it stays failed and
 * unwatched, its success is still a recovery to tell, and every monitor alerts at its first failure.
 */

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.stop();
  agent = undefined;
});

describe('migrating to alert after N failures and flapping', () => {
  it('keeps a failure raised before it as alerted, and every monitor alerting at its first failure', async () => {
    const dataDir = tempDir();
    const first = await startTestAgent({ dataDir });
    const failed = await (await first.api('/api/monitors', { method: 'POST', json: { name: 'failed before', timezone: 'UTC', schedule: '*/10 * * * *', duration: 1 } })).json();
    const fine = await (await first.api('/api/monitors', { method: 'POST', json: { name: 'fine before', timezone: 'UTC', schedule: '*/10 * * * *', duration: 1 } })).json();
    expect((await fetch(`${first.url}/api/pulse/${failed.token}/fail`)).status).toBe(200);
    await first.close();
    rollBackTo(join(dataDir, 'cronbeat.db'), 27);

    agent = await startTestAgent({ dataDir });
    const row = agent.store.monitors.find(1, failed.id)!;
    expect(row).toMatchObject({ is_alerted: 1, alert_sent: 1, alert_after: 1, failures: '[]', flapping: null, steady_at: null, due_at: null });
    expect(agent.store.monitors.find(1, fine.id)).toMatchObject({ is_alerted: 0, alert_after: 1 });
    expect((await fetch(`${agent.url}/api/pulse/${failed.token}`)).status).toBe(200);
    const kinds = agent.store.notifications.page(1, 100, 0).map((n) => n.alert?.event);
    expect(kinds[0]).toBe('monitor.recovered');
  });
});
