import { afterEach, describe, expect, it } from 'vitest';
import { createPulseRecorder } from '../../../agent/engine/monitors/pulseBatch';
import type { ReceivedPulse } from '../../../agent/engine/monitors/pulses';
import { at, engineFixture } from '../engineFixture';

const T0 = at('2026-11-21T10:00:00Z');
const pulseFor = (token: string, now: number, extra: Partial<ReceivedPulse> = {}): ReceivedPulse => ({
  token, kind: 'success', exitCode: null, rid: null, at: now, method: 'GET', remoteAddress: '127.0.0.1', body: '', bodyTruncated: false, ...extra,
});

describe('pulse recorder (pulses of one event-loop turn share a transaction)', () => {
  let fixture: ReturnType<typeof engineFixture>;
  afterEach(() => fixture.close());

  it('stores every pulse of a group, answers false for an unknown token, and announces after the commit', async () => {
    fixture = engineFixture(T0);
    const a = fixture.monitor({ schedule: '*/5 * * * *', duration: 5 });
    const b = fixture.monitor({ schedule: '0 * * * *', duration: 10 });
    const recorder = createPulseRecorder({ store: fixture.store, events: fixture.events, notifier: fixture.notifier });
    const now = T0 + 60_000;
    const answers = await Promise.all([
      recorder.record(pulseFor(a.token, now), now),
      recorder.record(pulseFor('no-such-token', now), now),
      recorder.record(pulseFor(b.token, now, { kind: 'start', rid: 'r1' }), now),
      recorder.record(pulseFor(a.token, now + 1, { kind: 'fail', exitCode: 3 }), now + 1),
    ]);
    expect(answers).toEqual([true, false, true, true]);
    expect(fixture.store.pulses.count(a.id)).toBe(2);
    expect(fixture.store.pulses.count(b.id)).toBe(1);
    expect(fixture.reload(a.id).is_alerted).toBe(1);
    expect(fixture.reload(b.id).running_since).toBe(now);
    expect(fixture.notifications().map((n) => n.data.status)).toEqual(['failed']);
    expect(fixture.notifier.popups).toHaveLength(1);
    expect(fixture.announced.filter((e) => e.type === 'monitor.changed')).toHaveLength(3);
  });

  it('rolls back and rejects only the pulse whose writes fail, keeping the rest of its group', async () => {
    fixture = engineFixture(T0);
    const a = fixture.monitor({ schedule: '*/5 * * * *', duration: 5 });
    const recorder = createPulseRecorder({ store: fixture.store, events: fixture.events, notifier: fixture.notifier });
    const now = T0 + 60_000;
    // The pulses table refuses a kind outside its CHECK constraint.
    const results = await Promise.allSettled([
      recorder.record(pulseFor(a.token, now), now),
      recorder.record(pulseFor(a.token, now, { kind: 'bogus' as ReceivedPulse['kind'] }), now),
      recorder.record(pulseFor(a.token, now + 1), now + 1),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(fixture.store.pulses.count(a.id)).toBe(2);
  });

  it('after a failed group, keeps what the other pulses did exactly once: no notification twice, none from the refused pulse', async () => {
    fixture = engineFixture(T0);
    const a = fixture.monitor({ schedule: '*/5 * * * *', duration: 5 });
    const recorder = createPulseRecorder({ store: fixture.store, events: fixture.events, notifier: fixture.notifier });
    const now = T0 + 60_000;
    const results = await Promise.allSettled([
      recorder.record(pulseFor(a.token, now, { kind: 'fail', exitCode: 2 }), now),
      recorder.record(pulseFor(a.token, now, { kind: 'bogus' as ReceivedPulse['kind'] }), now),
      recorder.record(pulseFor(a.token, now + 1), now + 1),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(fixture.store.pulses.page(a.id, 10, 0).map((p) => p.kind)).toEqual(['success', 'fail']);
    expect(fixture.notifications().map((n) => n.data.status).sort()).toEqual(['failed', 'recovered']);
    expect(fixture.notifier.popups).toHaveLength(2);
    expect(fixture.reload(a.id).is_alerted).toBe(0);
  });
});
