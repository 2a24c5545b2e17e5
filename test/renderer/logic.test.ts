import { describe, expect, it } from 'vitest';
import { matchPath, parseHash } from '../../renderer/src/lib/router';
import { SseParser } from '../../renderer/src/lib/live';
import { formatDuration, formatRelative, utcTitle } from '../../renderer/src/lib/format';
import { nextRuns, scheduleInWords } from '../../renderer/src/lib/schedule';
import { monitorFormErrors } from '../../renderer/src/components/MonitorForm';
import { serverFormErrors } from '../../renderer/src/components/ServerForm';
import { linkLabel, pageOf } from '../../renderer/src/components/Pager';
import { filterMonitors, keepOrder, sortMonitors, tagsOfMonitors } from '../../renderer/src/lib/monitorList';
import { commandLines } from '../../renderer/src/screens/MonitorDetail';
import { certificateLabel, daysLeft } from '../../renderer/src/screens/Certificates';
import { wordsOfNotice } from '../../agent/domain/alerts/noticeWords';
import { toApiTimestamp } from '../../agent/domain/time/apiTimestamps';
import type { Monitor } from '../../renderer/src/api/types';
import { channelBody, MASK_FIELD } from '../../renderer/src/lib/channelKinds';
import { mayChange } from '../../renderer/src/lib/access';

describe('hash routes', () => {
  it('reads the path and the query of the fragment', () => {
    const route = parseHash('#/sign-in?code=abc_-1');
    expect(route.path).toBe('/sign-in');
    expect(route.query.get('code')).toBe('abc_-1');
    expect(parseHash('').path).toBe('/');
    expect(parseHash('#monitors').path).toBe('/monitors');
  });

  it('matches patterns with parameters, and nothing else', () => {
    expect(matchPath('/monitors/:id', '/monitors/12')).toEqual({ id: '12' });
    expect(matchPath('/monitors/:id', '/monitors/12/')).toEqual({ id: '12' });
    expect(matchPath('/monitors/:id', '/monitors')).toBeNull();
    expect(matchPath('/monitors/:id', '/servers/12')).toBeNull();
  });
});

describe('the event stream parser', () => {
  it('returns each event\'s data once its blank line arrives, across chunk borders', () => {
    const parser = new SseParser();
    expect(parser.push('retry: 2000\ndata: {"type":"re')).toEqual([]);
    expect(parser.push('ady"}\n\n: ping\n\ndata: 1\r\n\r\ndata: a\ndata: b\n\n')).toEqual(['{"type":"ready"}', '1', 'a\nb']);
  });
});

describe('formatting', () => {
  it('shows durations and grace periods the way people say them', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(4_250)).toBe('4.3 s');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(2 * 3_600_000 + 600_000)).toBe('2 h 10 min');
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(90 * 60_000)).toBe('1 h 30 min');
    expect(formatDuration((1440 + 180) * 60_000)).toBe('1 day 3 h');
  });

  it('says how far a time is, and gives the UTC text for hovering', () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    expect(formatRelative('2026-11-21T11:57:00.000000Z', now)).toBe('3 min ago');
    expect(formatRelative('2026-11-21T14:00:00.000000Z', now)).toBe('in 2 h');
    expect(formatRelative('2026-11-21T11:59:50.000000Z', now)).toBe('just now');
    expect(utcTitle('2026-11-21T14:45:03.123000Z')).toBe('2026-11-21 14:45:03 UTC');
  });

  it('rounds a relative time into the next unit rather than say "60 min" or "24 h"', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    const at = (ms: number) => new Date(now + ms).toISOString();
    expect(formatRelative(at(-59.6 * 60_000), now)).toBe('1 h ago');
    expect(formatRelative(at(59.6 * 60_000), now)).toBe('in 1 h');
    expect(formatRelative(at(-59.4 * 60_000), now)).toBe('59 min ago');
    expect(formatRelative(at(-23.6 * 3_600_000), now)).toBe('1 d ago');
    expect(formatRelative(at(-23.4 * 3_600_000), now)).toBe('23 h ago');
    expect(formatRelative(at(-90 * 60_000), now)).toBe('2 h ago');
  });
});

describe('schedules', () => {
  it('puts a cron expression in words with its zone', () => {
    expect(scheduleInWords('0 2 * * *', 'Europe/Paris')).toBe('At 02:00 Europe/Paris');
    expect(scheduleInWords('*/15 * * * *')).toBe('Every 15 minutes');
    expect(scheduleInWords('17 */12 * * *', 'UTC')).toBe('At 17 minutes past the hour, every 12 hours (UTC)');
    expect(scheduleInWords('0 2 * *')).toBeNull();
    expect(scheduleInWords('nonsense here x y z')).toBeNull();
  });

  it('lists the next runs in the monitor\'s zone, across a daylight-saving change', () => {
    const runs = nextRuns('0 2 * * *', 'Europe/Paris', 3, new Date('2026-03-27T12:00:00Z'));
    expect(Array.isArray(runs) && runs.map((d) => d.toISOString())).toEqual([
      '2026-03-28T01:00:00.000Z',
      // 29 March: 02:00 does not exist in Paris (clocks go 02:00 → 03:00).
      expect.stringMatching(/^2026-03-29T0[01]:00:00.000Z$/),
      '2026-03-30T00:00:00.000Z',
    ]);
    expect(nextRuns('61 * * * *', 'UTC', 5, new Date())).toHaveProperty('error');
    expect(nextRuns('0 2 * * *', 'Not/AZone', 5, new Date())).toHaveProperty('error');
  });

  it('lists the runs of a schedule whose runs are years apart, as the agent expects them', () => {
    const runs = nextRuns('0 0 * 2 1#5', 'Europe/Paris', 3, new Date('2026-11-27T12:00:00Z'));
    expect(Array.isArray(runs) && runs.map((d) => d.toISOString())).toEqual([
      '2044-02-28T23:00:00.000Z',
      '2072-02-28T23:00:00.000Z',
      '2112-02-28T23:00:00.000Z',
    ]);
  });
});

describe('form checks mirror the API', () => {
  it('checks zones, schedules, durations, addresses and identifiers', () => {
    const monitor = (changes: Partial<Record<'name' | 'timezone' | 'schedule' | 'duration' | 'tags', string>>) =>
      monitorFormErrors({ name: 'Backup', timezone: 'UTC', schedule: '0 2 * * *', duration: '30', tags: '', ...changes });
    const server = (changes: Partial<Record<'name' | 'identifier' | 'ip_address', string>>) =>
      serverFormErrors({ name: 'Backup host', identifier: 'backup-01', ip_address: '192.168.1.20', ...changes });
    expect(monitor({})).toEqual({});
    expect(monitor({ tags: 'prod, server:web-01 db' })).toEqual({});
    expect(monitor({ tags: 'prod, bad/tag' }).tags).toMatch(/^The tags field must be a list of tags/);
    expect(monitor({ timezone: 'Europe/Paris' })).toEqual({});
    expect(monitor({ timezone: 'Mars/Olympus' }).timezone).toMatch(/time zone/);
    expect(monitor({ schedule: '0 0 2 * * *' }).schedule).toMatch(/five fields/);
    expect(monitor({ schedule: '' }).schedule).toBe('The schedule field is required.');
    for (const bad of ['', '0', '1.5', '525601', 'x']) expect(monitor({ duration: bad }).duration).toMatch(/^The grace (is required|must be)/);
    expect(server({})).toEqual({});
    expect(server({ ip_address: '2001:db8::1' })).toEqual({});
    for (const bad of ['256.1.1.1', '1.2.3', 'host', '::g']) expect(server({ ip_address: bad }).ip_address).toBe('The ip address field must be a valid IP address.');
    expect(server({ identifier: 'backup-01.example_a' })).toEqual({});
    expect(server({ identifier: 'has space' }).identifier).toBeDefined();
    expect(server({ identifier: 'x'.repeat(65) }).identifier).toBeDefined();
  });
});

describe('the channel form', () => {
  it('sends mask_secrets only to turn it off (on is the default), and removes it again on an edit', () => {
    const values = { name: 'chat', 'settings.webhook_url': 'https://hooks.slack.com/services/T/B/x' };
    expect(channelBody('slack', { ...values, [MASK_FIELD]: 'true' }, false).settings).not.toHaveProperty('mask_secrets');
    expect(channelBody('slack', { ...values, [MASK_FIELD]: 'false' }, false).settings.mask_secrets).toBe(false);
    expect(channelBody('slack', { ...values, [MASK_FIELD]: 'true' }, true).settings.mask_secrets).toBeNull();
  });
});

describe('pagination links', () => {
  it('reads the page of an envelope link and decodes its label', () => {
    expect(pageOf('http://127.0.0.1:8787/api/notifications?page=3')).toBe(3);
    expect(pageOf(null)).toBeNull();
    expect(linkLabel('&laquo; Previous')).toBe('« Previous');
    expect(linkLabel('Next &raquo;')).toBe('Next »');
  });
});

function monitor(overrides: Partial<Monitor>): Monitor {
  return {
    id: 1, name: 'm', company_id: 1, project_id: null, token: 't', timezone: 'UTC', schedule: '* * * * *',
    last_run_at: '', duration: 5, is_alerted: 0, alert_reason: '', deleted_at: null, created_at: '', updated_at: '',
    status: 'monitoring', next_due_at: null, last_pulse_at: '', paused_at: null, paused_until: null,
    pulse_url: 'http://127.0.0.1:8787/api/pulse/t', slug: null, tags: [], channel_ids: null, alert_reason_data: null,
    ...overrides,
  };
}

describe('the monitors list', () => {
  const list = [
    monitor({ id: 1, name: 'backup' }),
    monitor({ id: 2, name: 'zeta', is_alerted: 1, status: 'failed' }),
    monitor({ id: 3, name: 'alpha', status: 'running', timezone: 'Europe/Paris' }),
  ];

  it('puts failed monitors first, then running ones, then by name', () => {
    expect(sortMonitors(list).map((m) => m.id)).toEqual([2, 3, 1]);
  });

  it('keeps the order shown while the same monitors change (a live update), and sorts afresh when monitors come or go', () => {
    const shown = sortMonitors(list);
    // Monitor 1 fails: it keeps its place, as its new object.
    const failed = { ...list[0]!, is_alerted: 1, status: 'failed' as const };
    const kept = keepOrder(shown, [failed, list[1]!, list[2]!]);
    expect(kept.map((m) => m.id)).toEqual([2, 3, 1]);
    expect(kept[2]).toBe(failed);
    // A new monitor, or one deleted: the list is sorted again.
    expect(keepOrder(shown, [failed, list[1]!, list[2]!, monitor({ id: 4, name: 'aaa' })]).map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(keepOrder(shown, [failed, list[2]!]).map((m) => m.id)).toEqual([1, 3]);
    expect(keepOrder(null, list).map((m) => m.id)).toEqual([2, 3, 1]);
  });

  it('filters by status and by name, schedule or zone', () => {
    expect(filterMonitors(list, '', 'failed').map((m) => m.id)).toEqual([2]);
    expect(filterMonitors(list, 'BACK', '').map((m) => m.id)).toEqual([1]);
    expect(filterMonitors(list, 'paris', '').map((m) => m.id)).toEqual([3]);
    const tagged = list.map((m, i) => ({ ...m, tags: i === 0 ? ['prod', 'server:web-01'] : i === 1 ? ['prod'] : [] }));
    expect(filterMonitors(tagged, '', '', 'prod').map((m) => m.id)).toEqual([tagged[0].id, tagged[1].id]);
    expect(filterMonitors(tagged, '', '', 'server:web-01').map((m) => m.id)).toEqual([tagged[0].id]);
    expect(tagsOfMonitors(tagged)).toEqual(['prod', 'server:web-01']);
  });
});

describe('monitor details', () => {
  it('leaves --url out for the default agent address', () => {
    expect(commandLines('http://127.0.0.1:8787/api/pulse/abc', 'abc').run).toBe('cronbeat run abc -- /path/to/your/job.sh');
    const lines = commandLines('http://127.0.0.1:9000/api/pulse/abc', 'abc');
    expect(lines.run).toBe('cronbeat run abc --url http://127.0.0.1:9000 -- /path/to/your/job.sh');
    expect(lines.curl).toBe('curl -fsS -m 10 --retry 3 http://127.0.0.1:9000/api/pulse/abc');
    expect(commandLines('http://127.0.0.1:8787/api/pulse/abc', 'abc', '/usr/bin/node /opt/cb/dist/cronbeat.cjs').run).toBe(
      '/usr/bin/node /opt/cb/dist/cronbeat.cjs run abc -- /path/to/your/job.sh',
    );
  });

  it('counts whole days left on a certificate', () => {
    const now = Date.UTC(2026, 10, 21);
    expect(daysLeft('2026-12-01T00:00:00.000000Z', now)).toBe(10);
    expect(daysLeft('2026-11-20T00:00:00.000000Z', now)).toBe(-1);
    expect(daysLeft(null, now)).toBeNull();
  });

  it('counts days left as the certificate alerts do, by the one rule of agent/domain/certificates', () => {
    const now = Date.UTC(2026, 10, 21, 12);
    for (const hoursLeft of [1, 23, 24, 25, 36, 6.5 * 24, 7 * 24, 13.5 * 24]) {
      const expiresAt = now + hoursLeft * 3_600_000;
      const title = wordsOfNotice(
        { kind: 'certificate', change: 'changed', hostname: 'example.com', port: 443, status: 'expiring', expires_at: toApiTimestamp(expiresAt), issuer: null, last_error: null },
        { at: toApiTimestamp(now), server: null },
      ).title;
      const days = daysLeft(toApiTimestamp(expiresAt), now)!;
      expect(title, `${hoursLeft} h left`).toBe(`Certificate expires in ${days} day${days === 1 ? '' : 's'}: example.com`);
    }
    // Once expired, whole days ago, counted the same way (an hour ago is "1 d ago", as 1 hour left is "1 d").
    expect(daysLeft(toApiTimestamp(now - 3_600_000), now)).toBe(-1);
    expect(daysLeft(toApiTimestamp(now - 36 * 3_600_000), now)).toBe(-2);
  });

  it('names a certificate by its host, and its port unless 443, an IPv6 address in brackets before one', () => {
    expect(certificateLabel({ hostname: 'example.com', port: 443 })).toBe('example.com');
    expect(certificateLabel({ hostname: 'example.com', port: 8443 })).toBe('example.com:8443');
    expect(certificateLabel({ hostname: '::1', port: 443 })).toBe('::1');
    expect(certificateLabel({ hostname: '::1', port: 8443 })).toBe('[::1]:8443');
  });
});

describe('what the dashboard offers a key', () => {
  it('offers changes to a full key and to an agent that did not say, never to a read-only key', () => {
    expect(mayChange({ scope: 'full' })).toBe(true);
    expect(mayChange({ scope: 'read-only' })).toBe(false);
    // A session read that failed: the screens offer what they always did, and the agent still refuses what it must.
    expect(mayChange(undefined)).toBe(true);
  });
});
