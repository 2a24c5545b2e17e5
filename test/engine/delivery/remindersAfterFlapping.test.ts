import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../../../agent/domain/alerts/alert';
import { Receiver } from '../../helpers/receiver';
import { at } from '../engineFixture';
import { deliveryFixture } from './deliveryFixture';

/*
 * Flapping folds a monitor's alerts into one, then says nothing until it has been steady for an
 * hour. When it settles failed, the steady-again alert is the only word of that failure: a channel
 * that repeats alerts repeats that failure from then on, as it would have had the failure alerted.
 */

let fixture: ReturnType<typeof deliveryFixture>;
let receiver: Receiver;
afterEach(async () => {
  await receiver?.stop();
  await fixture?.close();
});

const MINUTE = 60_000;

/** The loop every 30 s from `from` to `to` (both ISO), the delivery worker after each step, the job ending its runs of `pulses` on the way. */
async function walk(token: string, from: string, to: string, pulses: Array<[string, 'success' | 'fail']> = []) {
  const queue = pulses.map(([time, kind]) => ({ at: at(time), kind }));
  for (let now = at(from); now <= at(to); now += MINUTE / 2) {
    while (queue.length > 0 && queue[0].at <= now) {
      const pulse = queue.shift()!;
      await fixture.pulse(token, pulse.at, { kind: pulse.kind, exitCode: pulse.kind === 'fail' ? 3 : 0 });
    }
    fixture.clock.now = now;
    await fixture.step(now);
    await fixture.worker.runDue();
  }
}

describe('reminders of a failure that flapping kept quiet', () => {
  it('start with the steady-again alert that says it is failed, and tell the failure, since it began', async () => {
    receiver = await new Receiver().start();
    fixture = deliveryFixture(at('2026-11-27T12:55:00Z'));
    const channel = fixture.channel('webhook', { url: `${receiver.url}/hook` });
    fixture.store.db.prepare('UPDATE channels SET remind_every_hours = 1 WHERE id = ?').run(channel.id);
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    const day = '2026-11-27T';
    // Five changes within the hour (the fifth, a failure, folded into the flapping alert), then failed for good.
    const changes: Array<[string, 'success' | 'fail']> = [
      [`${day}13:00:20Z`, 'fail'],
      [`${day}13:10:20Z`, 'success'],
      [`${day}13:20:20Z`, 'fail'],
      [`${day}13:30:20Z`, 'success'],
      [`${day}13:40:20Z`, 'fail'],
      [`${day}13:50:20Z`, 'fail'],
    ];
    await walk(monitor.token, `${day}12:55:00Z`, `${day}15:40:00Z`, changes);
    const events = () => receiver.requests.map((r) => r.headers['x-cronbeat-event']);
    expect(events()).toEqual(['monitor.failed', 'monitor.recovered', 'monitor.failed', 'monitor.recovered', 'monitor.flapping', 'monitor.steady']);

    // An hour after the steady-again alert (14:40:30), and every hour on while it stays failed.
    await walk(monitor.token, `${day}15:40:30Z`, `${day}16:41:00Z`);
    expect(events().slice(6)).toEqual(['monitor.still_failing', 'monitor.still_failing']);
    const alert = JSON.parse(receiver.requests[6].body) as Alert & { text: string };
    expect(alert.reason).toEqual({ kind: 'failed', exit_code: 3 });
    expect(alert.failing_since).toBe('2026-11-27T13:40:20.000000Z');
    expect(alert.text).toBe('Failed: the job exited with code 3. Failing since Fri 27 Nov 13:40 UTC (2 h).');
    expect(alert.at).toBe('2026-11-27T15:40:30.000000Z');
  });
});
