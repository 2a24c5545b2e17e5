import { afterEach, describe, expect, it } from 'vitest';
import { at, engineFixture } from './engineFixture';

let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

describe('a fixed-time job in the skipped hour of a spring-forward night', () => {
  it('is expected at the jump: its pulse at 03:00:40 EDT answers the run, and nothing fails at 04:00', async () => {
    fixture = engineFixture(at('2026-03-07T12:00:00Z'));
    const monitor = fixture.monitor({ schedule: '30 2 * * *', timezone: 'America/New_York', duration: 30 });
    expect(monitor.expected_run_at).toBe(at('2026-03-08T07:00:00Z'));
    expect(monitor.due_at).toBe(at('2026-03-08T07:30:00Z'));

    await fixture.pulse(monitor.token, at('2026-03-08T07:00:40Z'));
    await fixture.step(at('2026-03-08T08:00:01Z')); // 04:00 EDT
    expect(fixture.notifications()).toEqual([]);
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, expected_run_at: at('2026-03-09T06:30:00Z') });
  });

  it('fails with the run named at 03:00 EDT when no pulse comes', async () => {
    fixture = engineFixture(at('2026-03-07T12:00:00Z'));
    const monitor = fixture.monitor({ schedule: '30 2 * * *', timezone: 'America/New_York', duration: 30 });
    await fixture.step(at('2026-03-08T07:30:01Z'));
    expect(fixture.alertReason(monitor.id)).toBe(
      'Missed: the run due 2026-03-08 03:00 America/New_York (07:00 UTC) did not come (grace 30 min); no run has come yet',
    );
  });
});

// Under Debian's cron, `0,30 2 * * *` ran twice at the jump. Its main loop (a clock
// jump forward of up to three hours: "run fixed-time jobs for each minute missed") walks every
// skipped wall-clock minute and starts each fixed-time job that matches one, so 02:00 and 02:30
// are two runs, both right after the jump (the second about ten seconds later: cron sleeps 10 s
// after starting jobs). Cronbeat expects them at one due time, which either run's pulses answer.
describe('two fixed times in the skipped hour of a spring-forward night', () => {
  it('are two runs at the jump: both recorded, nothing fails, and the next run is the next night', async () => {
    fixture = engineFixture(at('2026-03-07T12:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0,30 2 * * *', timezone: 'America/New_York', duration: 30 });
    expect(monitor.expected_run_at).toBe(at('2026-03-08T07:00:00Z'));

    // As cron starts them: the 02:00 job at 03:00:00 EDT, the 02:30 job ten seconds later; each reports through `cronbeat run`.
    await fixture.pulse(monitor.token, at('2026-03-08T07:00:01Z'), { kind: 'start', rid: 'two' });
    await fixture.pulse(monitor.token, at('2026-03-08T07:00:11Z'), { kind: 'start', rid: 'two-thirty' });
    await fixture.pulse(monitor.token, at('2026-03-08T07:02:00Z'), { kind: 'success', rid: 'two', exitCode: 0 });
    await fixture.pulse(monitor.token, at('2026-03-08T07:02:30Z'), { kind: 'success', rid: 'two-thirty', exitCode: 0 });
    await fixture.step(at('2026-03-08T09:00:00Z'));

    expect(fixture.notifications()).toEqual([]);
    expect(fixture.store.pulses.count(monitor.id)).toBe(4);
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, running_since: null, expected_run_at: at('2026-03-09T06:00:00Z') });
  });
});

