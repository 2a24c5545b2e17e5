import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { at } from '../engineFixture';
import { deliveryFixture } from './deliveryFixture';

/*
 * A zone is checked when quiet hours are stored, but a data folder moves between machines (and
 * runtimes) whose time zone data differ: one channel's zone unknown here must not stop every
 * channel's deliveries. Its quiet hours are read in UTC.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  await fixture?.close();
});

describe('quiet hours in a zone this machine does not know', () => {
  it('hold that channel by UTC and never stop the others', async () => {
    const odd = await new Receiver().start();
    const plain = await new Receiver().start();
    receivers.push(odd, plain);
    fixture = deliveryFixture(at('2026-11-21T23:00:00Z'));
    const channel = fixture.channel('webhook', { url: `${odd.url}/odd` }, { start: '22:00', end: '07:00', timezone: 'Europe/Paris' });
    fixture.channel('webhook', { url: `${plain.url}/plain` });
    // As a machine with other time zone data would find it.
    fixture.store.db.prepare(`UPDATE channels SET quiet_hours = json_set(quiet_hours, '$.timezone', 'Mars/Olympus') WHERE id = ?`).run(channel.id);
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(plain.requests).toHaveLength(1);
    expect(odd.requests).toHaveLength(0);
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', next_attempt_at: at('2026-11-22T07:00:00Z') });

    fixture.clock.now = at('2026-11-22T07:00:00Z');
    await fixture.worker.runDue();
    expect(odd.requests).toHaveLength(1);
  });
});
