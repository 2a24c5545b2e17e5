import { afterEach, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { Receiver } from '../helpers/receiver';
import { runCli } from '../helpers/cli';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { until } from '../helpers/until';

/*
 * One vocabulary (docs/monitoring.md): failed is what the job said, missed is a run that did not
 * come. A monitor that alerts after 3 in a row and whose three runs never came has failed nothing:
 * its alert must not say "failed 3 times" where the CLI and the dashboard say "missed".
 */

const agents: TestAgent[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.stop();
  for (const receiver of receivers.splice(0)) await receiver.stop();
});

describe('the alert of a streak of missed runs', () => {
  it('says they went wrong and that the last was missed, never that the job failed, on the API, a webhook, a digest line and the CLI alike', async () => {
    const clock = { now: Date.parse('2026-11-27T12:55:00Z') };
    const agent = await startTestAgent({ clock: () => clock.now });
    agents.push(agent);
    const receiver = await new Receiver().start();
    receivers.push(receiver);
    expect((await agent.api('/api/channels', { method: 'POST', json: { name: 'hook', kind: 'webhook', settings: { url: `${receiver.url}/in` } } })).status).toBe(201);
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly-sync', timezone: 'UTC', schedule: '*/10 * * * *', duration: 1 } })).json();
    expect((await agent.api(`/api/monitors/${monitor.id}/alert-after`, { method: 'PUT', json: { alert_after: 3 } })).status).toBe(200);
    const failer = createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier });
    for (let t = Date.parse('2026-11-27T12:55:00Z'); t <= Date.parse('2026-11-27T13:22:00Z'); t += 30_000) {
      clock.now = t;
      await stepAt(failer, t);
    }
    const [notice] = (await (await agent.api('/api/notifications?kinds=all')).json()).data;
    // The dashboard's list titles it as the popup and every channel do; the description is the alert's words.
    expect(notice.data.title).toBe('nightly-sync went wrong 3 times in a row');
    expect(notice.data.description).toBe(
      'Went wrong 3 times in a row (runs due 2026-11-27 13:00 UTC, 2026-11-27 13:10 UTC, 2026-11-27 13:20 UTC). Last: Missed: the run due 2026-11-27 13:20 UTC did not come (grace 1 min); no run has come yet',
    );
    await until(() => receiver.requests.length >= 1, 'the webhook to receive the alert');
    const sent = JSON.parse(receiver.requests[0].body);
    expect(sent.title).toBe('nightly-sync went wrong 3 times in a row');
    expect(sent.text).toMatch(/^Went wrong 3 times in a row \(runs due Fri 27 Nov 13:00, 13:10, 13:20 UTC\)\. Last: Missed: /);
    const shown = await runCli(['monitor', 'show', 'nightly-sync'], { env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, TZ: 'UTC' } });
    expect(shown.stdout).toMatch(/^Status: +missed$/m);
  });
});
