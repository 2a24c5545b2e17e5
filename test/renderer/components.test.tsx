import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Pager } from '../../renderer/src/components/Pager';
import { StatusBadge, monitorStatus } from '../../renderer/src/components/StatusBadge';
import { Time } from '../../renderer/src/components/Time';
import { ErrorState } from '../../renderer/src/components/states';
import { NotificationList, notificationHref } from '../../renderer/src/screens/Notifications';
import { DurationChart } from '../../renderer/src/components/DurationChart';
import type { AppNotification, Page, Pulse } from '../../renderer/src/api/types';

function envelope(current: number, last: number): Page<unknown> {
  const url = (n: number) => `http://x/api/notifications?page=${n}`;
  return {
    current_page: current, data: [], first_page_url: url(1), from: 1, last_page: last, last_page_url: url(last),
    links: [
      { url: current > 1 ? url(current - 1) : null, label: '&laquo; Previous', active: false },
      ...Array.from({ length: last }, (_, i) => ({ url: url(i + 1), label: String(i + 1), active: i + 1 === current })),
      { url: current < last ? url(current + 1) : null, label: 'Next &raquo;', active: false },
    ],
    next_page_url: null, path: 'http://x/api/notifications', per_page: 10, prev_page_url: null, to: 10, total: last * 10,
  };
}

describe('Pager', () => {
  it('draws the envelope\'s links, marks the current page and disables what leads nowhere', () => {
    const html = renderToStaticMarkup(<Pager page={envelope(1, 3)} label="Pages" onPage={() => {}} />);
    expect(html).toContain('aria-label="Pages"');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>« Previous<\/button>/);
    expect(html).toMatch(/<button[^>]*aria-current="page"[^>]*>1<\/button>/);
    expect(html).toMatch(/<button type="button" class="pager-item">Next »<\/button>/);
  });

  it('collapses long runs of pages around the current one', () => {
    const html = renderToStaticMarkup(<Pager page={envelope(10, 40)} label="Pages" onPage={() => {}} />);
    const pages = [...html.matchAll(/aria-label="Page (\d+)"/g)].map((m) => Number(m[1]));
    expect(pages).toEqual([1, 8, 9, 10, 11, 12, 40]);
    expect(html.match(/pager-gap/g)).toHaveLength(2);
  });

  it('draws nothing for a single page', () => {
    expect(renderToStaticMarkup(<Pager page={envelope(1, 1)} label="Pages" onPage={() => {}} />)).toBe('');
  });
});

describe('status and time', () => {
  it('labels statuses in words, with a tone', () => {
    expect(renderToStaticMarkup(<StatusBadge status="failed" />)).toContain('badge-bad');
    expect(renderToStaticMarkup(<StatusBadge status="monitoring" />)).toContain('>Up<');
    expect(monitorStatus({ is_alerted: 1 } as never)).toBe('failed');
    expect(monitorStatus({ is_alerted: 0, status: 'running' } as never)).toBe('running');
  });

  it('shows a time in the viewer\'s zone with the UTC time on hover', () => {
    const html = renderToStaticMarkup(<Time value="2026-11-21T14:45:03.123000Z" />);
    expect(html).toContain('dateTime="2026-11-21T14:45:03.123000Z"');
    expect(html).toContain('title="2026-11-21 14:45:03 UTC"');
    expect(renderToStaticMarkup(<Time value={null} empty="Never" />)).toContain('Never');
  });

  it('marks error states so the end-to-end tests can refuse unexpected ones', () => {
    const html = renderToStaticMarkup(<ErrorState error={new Error('boom')} />);
    expect(html).toContain('data-testid="error-state"');
    expect(html).toContain('role="alert"');
    expect(html).toContain('boom');
  });
});

describe('notifications', () => {
  const base = { notifiable_type: 'App\\Models\\Company', notifiable_id: 1, read_at: null, created_at: '2026-11-21T10:00:00.000000Z', updated_at: '' };
  const failed: AppNotification = {
    ...base, id: 'a', type: 'App\\Notifications\\MonitorFailedNotification',
    data: {
      type: 'monitor', type_id: 4, project_id: null, status: 'failed', title: 'Backup failed', description: 'No pulse', timezone: 'UTC', icon: 'x',
      monitor_name: 'Backup', monitor_token: 't', monitor_schedule: '0 2 * * *', monitor_last_run_at: null, monitor_duration: 5,
      monitor_is_alerted: 1, monitor_alert_reason: 'No pulse',
    },
  };
  const alert: AppNotification = {
    ...base, id: 'b', type: 'App\\Notifications\\ServerAlertNotification',
    data: {
      type: 'server', type_id: 2, project_id: null, status: 'altered', title: 'Crontab changed', description: 'root: backup', timezone: 'UTC', icon: 'x',
      server_name: 'web', server_identifier: 'web-1', username: 'root', command: 'backup',
    },
  };

  it('links each notification to what it is about, with its kind\'s tone', () => {
    expect(notificationHref(failed)).toBe('#/monitors/4');
    expect(notificationHref(alert)).toBe('#/servers/2');
    const html = renderToStaticMarkup(<NotificationList notifications={[failed, alert]} />);
    expect(html).toContain('href="#/monitors/4"');
    expect(html).toContain('kind-bad');
    expect(html).toContain('kind-warn');
    expect(html.match(/data-testid="notification"/g)).toHaveLength(2);
  });
});

describe('run durations chart', () => {
  const pulse = (id: number, kind: Pulse['kind'], duration_ms: number | null): Pulse => ({
    id, monitor_id: 1, kind, exit_code: kind === 'fail' ? 1 : 0, rid: null, received_at: '2026-11-21T10:00:00.000000Z', duration_ms,
    method: 'GET', remote_address: '127.0.0.1', body: '', body_truncated: false, paused_until: null,
  });

  it('draws one bar per timed run, failures in the bad colour', () => {
    const html = renderToStaticMarkup(<DurationChart pulses={[pulse(3, 'fail', 2000), pulse(2, 'start', null), pulse(1, 'success', 1000)]} />);
    expect(html.match(/<rect/g)).toHaveLength(2);
    expect(html).toContain('bar-bad');
    expect(html).toContain('longest 2.0 s');
    // Axes: a round top for the durations, and the times of the first and last run.
    expect(html).toContain('<span>2.0 s</span><span>1.0 s</span><span>0</span>');
    expect(html.match(/<time /g)).toHaveLength(2);
  });

  it('explains an empty chart', () => {
    expect(renderToStaticMarkup(<DurationChart pulses={[pulse(1, 'success', null)]} />)).toContain('No timed runs yet');
  });
});

describe('DesktopAgentSettings', () => {
  const control = { choice: async () => null, connect: async () => ({ ok: true, message: '' }), runHere: () => {} };

  it('offers to connect to an agent by address and key, the key never shown', async () => {
    const { DesktopAgentSettings } = await import('../../renderer/src/components/DesktopAgentSettings');
    const html = renderToStaticMarkup(<DesktopAgentSettings control={control} />);
    expect(html).toContain('The agent runs inside this app');
    expect(html).toMatch(/<label for="agent-url">Address of the agent to connect to<\/label>/);
    expect(html).toMatch(/<input id="agent-key" type="password" autoComplete="off"/i);
    expect(html).toContain('>Connect</button>');
  });
});

describe('the settings history in words', () => {
  it('says who a monitor was handed to, and the slug it got', async () => {
    const { describeChange } = await import('../../renderer/src/components/SettingsHistory');
    const handover = { id: 1, at: '2026-11-27T10:00:00.000000Z', source: 'api' as const, changes: { line_key_id: { from: null, to: 7 }, slug: { from: null, to: 'db-dump' } } };
    expect(describeChange(handover)).toBe('line of key — → 7; slug — → db-dump');
  });

  it('says every setting an edit records in words, never by its field name in the API', async () => {
    const { describeChange } = await import('../../renderer/src/components/SettingsHistory');
    // The fields agent/engine/monitors/monitorEdits.ts compares and records.
    const fields = ['name', 'project_id', 'timezone', 'schedule', 'duration', 'max_runtime', 'alert_after', 'tags'];
    for (const field of fields) {
      const words = describeChange({ id: 1, at: '2026-11-27T10:00:00.000000Z', source: 'api', changes: { [field]: { from: 1, to: 2 } } });
      expect(words, field).not.toContain('_');
    }
    const alertAfter = { id: 2, at: '2026-11-27T10:00:00.000000Z', source: 'api' as const, changes: { alert_after: { from: 1, to: 3 } } };
    expect(describeChange(alertAfter)).toBe('alert after (failures in a row) 1 → 3');
  });
});

describe('AlertHold', () => {
  it('says why no alert was sent yet in the one vocabulary: the one run so far by its own word, several as having gone wrong', async () => {
    const { AlertHold } = await import('../../renderer/src/components/AlertHold');
    const monitor = (failures: number, reason: unknown) =>
      ({ is_alerted: 1, alert_after: 3, failures_in_a_row: failures, flapping_since: undefined, alert_reason_data: reason }) as unknown as Parameters<typeof AlertHold>[0]['monitor'];
    const said = (failures: number, reason: unknown) => renderToStaticMarkup(<AlertHold monitor={monitor(failures, reason)} />).replace(/<[^>]+>/g, '');
    const missed = { kind: 'missed', expected_at: '2026-11-27T13:20:00.000000Z', grace_minutes: 1, resumed_at: null, last_run_at: null };
    expect(said(1, missed)).toBe('Missed once: no alert yet, one is sent at the 3rd in a row.');
    expect(said(1, { kind: 'failed', exit_code: 3 })).toBe('Failed once: no alert yet, one is sent at the 3rd in a row.');
    expect(said(1, { kind: 'not_finished', started_at: '2026-11-27T13:20:00.000000Z', grace_minutes: 1, resumed_at: null })).toBe('Stuck once: no alert yet, one is sent at the 3rd in a row.');
    expect(said(2, missed)).toBe('Went wrong twice in a row: no alert yet, one is sent at the 3rd in a row.');
  });
});

describe('ErrorState', () => {
  it('says what a failure of the agent itself means, and only for such a failure', async () => {
    const { ErrorState } = await import('../../renderer/src/components/states');
    const { ApiError } = await import('../../renderer/src/api/client');
    const said = (error: Error) => renderToStaticMarkup(<ErrorState error={error} />).replace(/<[^>]+>/g, ' ');
    expect(said(new ApiError('Server Error', 500))).toContain('The agent failed to answer: trying again may work; its log says why.');
    expect(said(new ApiError('The agent answered 502 Bad Gateway', 502))).toContain('trying again may work');
    expect(said(new ApiError('Monitor not found.', 404))).not.toContain('its log');
    expect(said(new ApiError('Cannot reach the Cronbeat agent. Is it running?', 0))).not.toContain('its log');
  });
});
