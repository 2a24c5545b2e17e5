import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT } from '../../../agent/engine/delivery/worker';
import { newMonitorTiming } from '../../../agent/domain/monitors/dueTime';
import { Receiver } from '../../helpers/receiver';
import { at } from '../engineFixture';
import { deliveryFixture } from './deliveryFixture';

/*
 * Companies on one agent share its send slots (MAX_IN_FLIGHT). One company's channels that hang
 * (a receiver that never answers, an address that swallows connections) must not hold another
 * company's alerts: its channels could be many, and its deliveries, retried, are always older.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  await fixture?.close();
});

const SECRET = 'a-webhook-secret-of-some-length';
const T0 = at('2026-11-21T10:00:00Z');

async function started(...answers: ConstructorParameters<typeof Receiver>) {
  const receiver = await new Receiver(...answers).start();
  receivers.push(receiver);
  return receiver;
}

/** Company 2 with `channels` webhooks to a receiver that never answers, and a monitor that failed at T0: a delivery to each. */
async function hangingCompany(channels: number) {
  const hanging = await started(['hang']);
  fixture.store.companies.ensure(2, T0);
  for (let i = 0; i < channels; i++) {
    fixture.store.channels.create({ companyId: 2, name: `hangs ${i}`, kind: 'webhook', settings: { url: hanging.url, secret: SECRET }, quietHours: null, now: T0 });
  }
  const since = T0 - 10 * 60_000;
  const spec = { schedule: '* * * * *', timezone: 'UTC', durationMinutes: 1 };
  fixture.store.monitors.create({ companyId: 2, name: 'tenant job', projectId: null, token: randomUUID(), timezone: 'UTC', schedule: spec.schedule, duration: 1, maxRuntime: null, ...newMonitorTiming(spec, since), now: since });
  await fixture.step(T0);
  return hanging;
}

/** Company 1's one channel, to a receiver that answers, and its monitor failed a second after company 2's. */
async function company1Failure() {
  const fine = await started();
  const channel = fixture.channel('webhook', { url: fine.url, secret: SECRET }, null, 'ours');
  fixture.clock.now = T0 + 1000;
  await fixture.failMonitor('our backup');
  const [ours] = fixture.deliveries().filter((d) => d.channel_id === channel.id);
  return { fine, ours };
}

describe('another company\'s hanging channels', () => {
  it('do not fill a pass ahead of an alert of this company: its delivery goes in the first pass', async () => {
    fixture = deliveryFixture(T0, { timeoutMs: 300 });
    await hangingCompany(2 * MAX_IN_FLIGHT);
    const { fine, ours } = await company1Failure();
    expect(fixture.deliveries()).toHaveLength(2 * MAX_IN_FLIGHT + 1);

    await fixture.worker.runDue();

    // Tried in this pass (whatever the machine's speed made of its 300 ms), beside all but one of company 2's slots.
    const tried = fixture.deliveries().filter((d) => d.attempts > 0);
    expect(tried.map((d) => d.id)).toContain(ours.id);
    expect(tried.length).toBeLessThan(2 * MAX_IN_FLIGHT);
    expect(fine.requests.length).toBeLessThanOrEqual(1);
  });

  it('do not take the next free send slot ahead of it while that company holds the others', async () => {
    fixture = deliveryFixture(T0, { timeoutMs: 300 });
    await hangingCompany(2 * MAX_IN_FLIGHT);
    const { ours } = await company1Failure();
    // Company 2 holds every slot but one (its sends on the wire, claimed as the worker claims them).
    const theirs = fixture.deliveries().filter((d) => d.id !== ours.id);
    for (const delivery of theirs.slice(0, MAX_IN_FLIGHT - 1)) expect(fixture.store.deliveries.claim(delivery.id, T0 + 1000, T0 + 11_000)).toBe(true);

    const [next] = fixture.store.deliveries.due(T0 + 1000, 1);
    expect(next.id).toBe(ours.id);
    // Alone on the agent, a company's deliveries still go oldest first.
    expect(fixture.store.deliveries.due(T0 + 1000, MAX_IN_FLIGHT).map((d) => d.id)).toEqual([ours.id, ...theirs.slice(MAX_IN_FLIGHT - 1, 2 * MAX_IN_FLIGHT - 2).map((d) => d.id)]);
  });
});
