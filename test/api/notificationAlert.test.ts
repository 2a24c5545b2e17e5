import { afterEach, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * Alert reasons are data: the dashboard puts an alert in words from its data, not
 * from the description's text. `kinds=all` (Cronbeat's own list) carries each notification's
 * alert; the spec's list stays exactly as the spec has it.
 */

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.stop();
  agent = undefined;
});

describe('notifications carry their alert as data', () => {
  it('kinds=all: the reason as kind and fields, the run with its output; the spec list: no extra field', async () => {
    agent = await startTestAgent();
    const created = await agent.api('/api/monitors', { method: 'POST', json: { name: 'backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 30 } });
    const monitor = await created.json();
    await fetch(`${agent.url}/api/pulse/${monitor.token}/3`, { method: 'POST', body: 'disk full' });

    const all = await (await agent.api('/api/notifications?kinds=all')).json();
    expect(all.data[0].alert).toMatchObject({
      event: 'monitor.failed',
      reason: { kind: 'failed', exit_code: 3 },
      monitor: { id: monitor.id, name: 'backup' },
      run: { exit_code: 3, output_tail: 'disk full' },
    });
    const spec = await (await agent.api('/api/notifications')).json();
    expect(Object.keys(spec.data[0]).sort()).toEqual(['created_at', 'data', 'id', 'notifiable_id', 'notifiable_type', 'read_at', 'type', 'updated_at']);
  });
});
