import { describe, expect, it } from 'vitest';
import { serverQuietNotice, serverReportingNotice } from '../../../agent/domain/servers/quietNotices';

const server = { id: 1, name: 'web 1', identifier: 'web-1' };
const report = { lastReportAt: Date.parse('2026-11-23T10:00:00Z'), intervalSeconds: 60 };

describe("a quiet server's words", () => {
  it("tell the moment in the admin's zone with UTC beside it, and name the command in plain quotes", () => {
    const { data } = serverQuietNotice(server, report, Date.parse('2026-11-23T10:04:00Z'), 'America/New_York');
    expect(data.description).toBe(
      'The crontab watcher of web 1 (web-1) has not reported since 2026-11-23 05:00 America/New_York (10:00 UTC); it reports every minute. Is "cronbeat crontab watch" still running there, and can it reach Cronbeat?',
    );
    expect(data.timezone).toBe('America/New_York');
  });

  it('fall back to UTC for a zone the clock library does not know, rather than lose the notice', () => {
    const back = { ...report, lastReportAt: Date.parse('2026-11-23T10:12:00Z') };
    const { data } = serverReportingNotice(server, back, report.lastReportAt, 'Nope/Nope');
    expect(data.description).toBe('The crontab watcher of web 1 (web-1) reported again at 2026-11-23 10:12 UTC, after 12 min without a report.');
    expect(data.timezone).toBe('UTC');
  });
});
