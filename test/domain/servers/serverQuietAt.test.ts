import { describe, expect, it } from 'vitest';
import { isQuiet, quietAfter, serverQuietAt } from '../../../agent/domain/servers/quietAfter';
import { serverQuietNotice, serverReportingNotice } from '../../../agent/domain/servers/quietNotices';

/* A server with several watchers is quiet while any of them is, whatever order they reported in. */

const minuteWatcher = { quiet_alert_at: quietAfter(0, 60) }; // reported at 0, every minute: quiet after 3 min
const hourlyWatcher = { quiet_alert_at: quietAfter(170_000, 3600) }; // reported later, hourly

const fold = (watchers: Array<{ quiet_alert_at: number }>) => watchers.reduce<number | null>((soFar, w) => serverQuietAt(soFar, w.quiet_alert_at), null);

describe("a server's quiet moment", () => {
  it("is the earliest of its watchers', in either order: a later report with a longer interval hides nothing", () => {
    expect(fold([minuteWatcher, hourlyWatcher])).toBe(180_000);
    expect(fold([hourlyWatcher, minuteWatcher])).toBe(180_000);
    const server = { quiet_alert_at: fold([hourlyWatcher, minuteWatcher])! };
    expect(isQuiet(server, 180_000)).toBe(false);
    expect(isQuiet(server, 180_001)).toBe(true);
  });

  it("is its only watcher's, and none for a server no watcher reported on", () => {
    expect(fold([hourlyWatcher])).toBe(hourlyWatcher.quiet_alert_at);
    expect(fold([])).toBeNull();
  });
});

describe("a quiet watcher's words, when its server has several", () => {
  const server = { id: 1, name: 'web 1', identifier: 'web-1' };
  const report = { lastReportAt: Date.parse('2026-11-23T10:00:00Z'), intervalSeconds: 60, watcher: 'timers-watch-system' };

  it('name the watcher, in the words and in the alert it keeps', () => {
    const { data, alert } = serverQuietNotice(server, report, Date.parse('2026-11-23T10:04:00Z'));
    expect(data.description).toBe(
      'The crontab watcher "timers-watch-system" of web 1 (web-1) has not reported since 2026-11-23 10:00 UTC; it reports every minute. Is "cronbeat crontab watch" still running there, and can it reach Cronbeat?',
    );
    expect(alert.reason).toMatchObject({ kind: 'server_quiet', watcher: 'timers-watch-system' });
    const back = serverReportingNotice(server, { ...report, lastReportAt: Date.parse('2026-11-23T10:12:00Z') }, report.lastReportAt);
    expect(back.data.description).toBe('The crontab watcher "timers-watch-system" of web 1 (web-1) reported again at 2026-11-23 10:12 UTC, after 12 min without a report.');
  });

  it("keep the words and the alert of a server's only watcher as they were", () => {
    const { alert } = serverQuietNotice(server, { ...report, watcher: null }, Date.parse('2026-11-23T10:04:00Z'));
    expect(alert.reason).not.toHaveProperty('watcher');
  });
});
