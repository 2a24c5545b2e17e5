import type { FormEvent } from 'react';
import { describedBy, Field } from '../components/Field';
import { PageHeader } from '../components/Layout';
import { useApp } from '../lib/app-context';
import { utcTitle } from '../lib/format';
import { useApiForm } from '../lib/use-api-form';
import { navigate } from '../lib/router';
import { formatInZone, nextRuns, scheduleInWords, viewerZone } from '../lib/schedule';
import { ZoneField } from '../components/ZoneField';
import { resolveZone } from '../lib/zoneSearch';
import { validateDuration, validateName, validateSchedule, validateTimezone, zoneList } from '../lib/validate';

type FieldName = 'name' | 'timezone' | 'schedule' | 'duration';

const examples = [
  { schedule: '0 2 * * *', label: 'Every day at 02:00' },
  { schedule: '*/15 * * * *', label: 'Every 15 minutes' },
  { schedule: '0 * * * *', label: 'Every hour' },
  { schedule: '30 3 * * 1', label: 'Mondays at 03:30' },
];

export function MonitorNewScreen() {
  const { api } = useApp();
  const { values, set, shown, clientErrors, formError, busy, submit } = useApiForm<FieldName>({
    idPrefix: 'monitor',
    initial: { name: '', timezone: viewerZone(), schedule: '0 2 * * *', duration: '30' },
    validate: (v) => ({
      name: validateName(v.name),
      timezone: validateTimezone(v.timezone),
      schedule: validateSchedule(v.schedule),
      duration: validateDuration(v.duration),
    }),
  });

  // "Paris" as typed is Europe/Paris: the preview and the API get the zone name.
  const zone = resolveZone(values.timezone, zoneList()) ?? values.timezone;
  const runs = clientErrors.timezone ? null : nextRuns(values.schedule, zone, 5, new Date());
  const words = scheduleInWords(values.schedule);

  const onSubmit = (event: FormEvent) =>
    submit(event, async (v) => {
      const monitor = await api.createMonitor({
        name: v.name.trim(),
        timezone: resolveZone(v.timezone, zoneList()) ?? v.timezone,
        schedule: v.schedule.trim(),
        duration: Number(v.duration),
      });
      navigate(`/monitors/${monitor.id}`);
    });

  return (
    <>
      <PageHeader title="New monitor" back={{ href: '#/monitors', label: 'Monitors' }} />
      <form className="form card" onSubmit={onSubmit} noValidate aria-label="New monitor">
        {formError ? (
          <div className="banner banner-error" role="alert">
            {formError}
          </div>
        ) : null}
        <Field id="monitor-name" label="Name" error={shown('name')}>
          <input
            id="monitor-name"
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
            placeholder="Nightly database backup"
            maxLength={255}
            autoFocus
            aria-invalid={Boolean(shown('name'))}
            aria-describedby={describedBy('monitor-name', false, shown('name'))}
          />
        </Field>
        <div className="form-row">
          <Field
            id="monitor-schedule"
            label="Schedule (cron)"
            error={shown('schedule')}
            hint={words ? `${words}.` : 'minute hour day-of-month month day-of-week, or @daily, @hourly…'}
          >
            <input
              id="monitor-schedule"
              className="code"
              value={values.schedule}
              onChange={(e) => set('schedule', e.target.value)}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={Boolean(shown('schedule'))}
              aria-describedby={describedBy('monitor-schedule', true, shown('schedule'))}
            />
          </Field>
          <ZoneField id="monitor-timezone" value={values.timezone} error={shown('timezone')} onChange={(value) => set('timezone', value)} />
        </div>
        <div className="chips" aria-label="Common schedules">
          {examples.map((example) => (
            <button key={example.schedule} type="button" className="chip" onClick={() => set('schedule', example.schedule)}>
              {example.label}
            </button>
          ))}
        </div>
        <section className="next-runs" aria-labelledby="next-runs-title">
          <h2 id="next-runs-title">Next 5 runs</h2>
          {runs && !('error' in runs) && !clientErrors.schedule ? (
            <ol>
              {runs.map((run) => (
                <li key={run.getTime()}>
                  <time dateTime={run.toISOString()} title={utcTitle(run.toISOString())}>
                    {formatInZone(run, zone)}
                  </time>
                  <span className="muted"> ({zone})</span>
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">Shown once the schedule and the time zone are valid.</p>
          )}
        </section>
        <Field
          id="monitor-duration"
          label="Grace (minutes)"
          error={shown('duration')}
          hint="How long after each scheduled run a pulse may take to arrive before the monitor fails."
        >
          <input
            id="monitor-duration"
            type="number"
            inputMode="numeric"
            min={1}
            max={525600}
            step={1}
            value={values.duration}
            onChange={(e) => set('duration', e.target.value)}
            aria-invalid={Boolean(shown('duration'))}
            aria-describedby={describedBy('monitor-duration', true, shown('duration'))}
          />
        </Field>
        <div className="form-actions">
          <a className="button" href="#/monitors">
            Cancel
          </a>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create monitor'}
          </button>
        </div>
      </form>
    </>
  );
}
