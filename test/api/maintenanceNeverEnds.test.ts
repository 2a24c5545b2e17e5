import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

// A recurring maintenance window must open and close: one that never opens is a silent mistake,
// one that reopens before it closes hides every alert of the monitors it covers for good.
const now = Date.parse('2026-11-27T13:00:00Z');
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
});
afterAll(() => agent.stop());

const post = (json: unknown) => agent.api('/api/maintenance-windows', { method: 'POST', json });
const windowsCount = () => agent.store.maintenanceWindows.list(1).length;

async function expectRefused(answer: Response, field: string, words: RegExp) {
  expect(answer.status).toBe(422);
  const { message, errors } = await answer.json();
  expect(Object.keys(errors)).toEqual([field]);
  expect(message).toMatch(words);
}

describe('a recurring maintenance window', () => {
  it('takes a cron schedule or a calendar event, never a period: it has no moment of its own to open at', async () => {
    await expectRefused(await post({ schedule: '@every 1h', timezone: 'UTC', duration: 60 }), 'schedule', /period.*no moment/);
    expect(windowsCount()).toBe(0);
    const sundays = await post({ schedule: 'OnCalendar=Sun 03:00', timezone: 'Europe/Paris', duration: 60 });
    expect(sundays.status).toBe(201);
    expect(await sundays.json()).toMatchObject({ schedule: 'Sun 03:00', timezone: 'Europe/Paris', duration: 60, next_starts_at: '2026-11-29T02:00:00.000000Z' });
  });

  it('refuses a calendar event that never elapses (as systemd says "never"): the window would never open', async () => {
    const before = windowsCount();
    for (const schedule of ['*-02-30 03:00', '2020-01-01 00:00']) {
      await expectRefused(await post({ schedule, timezone: 'UTC', duration: 60 }), 'schedule', /never open/);
    }
    expect(windowsCount()).toBe(before);
  });

  it('is refused when each occurrence lasts until the next one opens, so it would never end', async () => {
    const cases: Array<[string, number, string]> = [
      ['* * * * *', 10_080, '1 min'],
      ['0 * * * *', 60, '1 h'],
      ['*/30 * * * *', 45, '30 min'],
      ['0 2 * * *', 1440, '1 day'],
      ['0 3 * * 0', 10_080, '7 days'],
      ['0 3 * * 0,3', 5760, '4 days'],
      ['0 8,20 * * *', 720, '12 h'],
      ['Sun,Wed 03:00', 5760, '4 days'],
      ['*:0/5', 5, '5 min'],
    ];
    const before = windowsCount();
    for (const [schedule, duration, gap] of cases) {
      const answer = await post({ schedule, timezone: 'Europe/Paris', duration });
      expect(answer.status, `${schedule} for ${duration} min`).toBe(422);
      await expectRefused(answer, 'duration', new RegExp(`never end.*${gap}|${gap}.*never end`));
    }
    expect(windowsCount()).toBe(before);
  });

  it('is taken when it closes between two openings, even if only on some days', async () => {
    const taken: Array<[string, number]> = [
      ['0 * * * *', 59],
      ['0 2 * * *', 1439],
      ['0 3 * * 0', 10_079],
      // Weekdays run into each other, but the weekend is free.
      ['0 2 * * 1-5', 2000],
      // Every day of January, then eleven months closed.
      ['0 0 * 1 *', 1440],
      ['0 0 29 2 *', 10_080],
      ['Mon..Fri *:0/5', 2880],
    ];
    for (const [schedule, duration] of taken) {
      const answer = await post({ schedule, timezone: 'UTC', duration });
      expect(answer.status, `${schedule} for ${duration} min`).toBe(201);
    }
  });

  it('refuses a patch that would make it never end, changing nothing', async () => {
    const window = await (await post({ schedule: '0 3 * * *', timezone: 'UTC', duration: 60 })).json();
    await expectRefused(
      await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'PATCH', json: { schedule: '*/5 * * * *' } }),
      'duration',
      /never end/,
    );
    await expectRefused(
      await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'PATCH', json: { duration: 1440 } }),
      'duration',
      /never end/,
    );
    expect(await (await agent.api(`/api/maintenance-windows/${window.id}`)).json()).toEqual(window);
  });
});

describe('a one-off maintenance window', () => {
  it('is refused when it has already ended (a year mistyped), as a snooze that ended is: it would cover nothing', async () => {
    for (const [starts_at, ends_at] of [
      ['2025-11-27T14:00:00Z', '2025-11-27T15:00:00Z'],
      ['0001-01-01T00:00:00Z', '0001-01-02T00:00:00Z'],
      ['2026-11-27T12:00:00Z', '2026-11-27T13:00:00Z'],
    ]) {
      await expectRefused(await post({ starts_at, ends_at }), 'ends_at', /in the future/);
    }
    // One under way, or to come, is taken; and a window that has ended may still be renamed.
    const underWay = await post({ starts_at: '2026-11-27T12:00:00Z', ends_at: '2026-11-27T13:00:01Z' });
    expect(underWay.status).toBe(201);
    const window = await underWay.json();
    await expectRefused(
      await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'PATCH', json: { ends_at: '2026-11-27T12:30:00Z' } }),
      'ends_at',
      /in the future/,
    );
    expect((await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'PATCH', json: { name: 'db upgrade' } })).status).toBe(200);
  });
});
