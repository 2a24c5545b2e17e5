import { useState, type FormEvent } from 'react';
import type { NewMonitor } from '../api/endpoints';
import { describedBy, Field, WholeNumberField } from './Field';
import { FormActions, FormError } from './FormParts';
import { ZoneField } from './ZoneField';
import { useApiForm } from '../lib/use-api-form';
import { nextRuns, scheduleInWords } from '../lib/schedule';
import { ZonedTime } from './ZonedTime';
import { findTimeZone } from '../../../agent/domain/time/timeZones';
import { editMovesRuns } from '../../../agent/domain/monitors/dueTime';
import { maxRuntimeInput, monitorInput } from '../../../agent/contract/monitors';
import { changedFields, fieldErrors, numberOrAbsent } from '../lib/formRules';
import { AlertAfterField, alertAfterError, alertAfterOf } from './AlertAfterField';

type FieldName = 'name' | 'timezone' | 'schedule' | 'duration' | 'tags' | 'max_runtime' | 'alert_after';

/** The form's values, as typed (the max run time may be left out: empty; no alert-after: 1, the first failure). */
export type MonitorFormValues = Record<Exclude<FieldName, 'max_runtime' | 'alert_after'>, string> & { max_runtime?: string; alert_after?: string };

const examples = [
  { schedule: '0 2 * * *', label: 'Every day at 02:00' },
  { schedule: '*/15 * * * *', label: 'Every 15 minutes' },
  { schedule: '0 * * * *', label: 'Every hour' },
  { schedule: '30 3 * * 1', label: 'Mondays at 03:30' },
  { schedule: 'Mon..Fri 09:00', label: 'Weekdays at 09:00 (systemd calendar)' },
  { schedule: '@every 90m', label: 'Every 90 minutes after the last run' },
];

/** The body the form sends (and checks by the API's schema): "Paris" as typed is Europe/Paris. */
function monitorBody(v: MonitorFormValues) {
  return {
    name: v.name.trim(),
    timezone: findTimeZone(v.timezone).zone ?? v.timezone,
    schedule: v.schedule.trim(),
    duration: numberOrAbsent(v.duration),
    // Typed as "prod, db" or "prod db": the whole list, so emptying the field takes every tag off.
    tags: v.tags.split(/[\s,]+/).filter((tag) => tag !== ''),
  };
}

/** The max run time as PUT /api/monitors/{id}/max-runtime takes it: empty is no limit (null). */
export const maxRuntimeOf = (v: MonitorFormValues): number | null => (!v.max_runtime?.trim() ? null : Number(v.max_runtime));

/** The form's refusals: the API's own (the API's `duration` is the grace on screen, `max_runtime` the max run time). */
export const monitorFormErrors = (v: MonitorFormValues) => {
  const errors: Record<string, string> = {
    ...fieldErrors(monitorInput, monitorBody(v), { words: { duration: 'grace' } }),
    ...fieldErrors(maxRuntimeInput, { max_runtime: maxRuntimeOf(v) }, { words: { max_runtime: 'max run time' } }),
  };
  // A refused tag is said at the one tags field, not at "tags.2".
  for (const key of Object.keys(errors)) {
    if (key.startsWith('tags.')) errors.tags ??= errors[key];
  }
  const alertAfter = alertAfterError(v.alert_after ?? '1');
  if (alertAfter) errors.alert_after = alertAfter;
  return errors;
};

/** What the form saves, as the API takes it, and what was changed in the form since it opened. */
export interface MonitorSave {
  monitor: NewMonitor;
  maxRuntime: number | null;
  alertAfter: number;
  /**
   * An edit sends only these: the monitor may have changed elsewhere (another tab, the CLI) while
   * the form was open, and a field left as it was must not put the old value back.
   */
  changed: { monitor: Partial<NewMonitor>; maxRuntime: boolean; alertAfter: boolean };
}

const saveOf = (v: MonitorFormValues): Omit<MonitorSave, 'changed'> => ({
  monitor: monitorBody(v) as NewMonitor,
  maxRuntime: maxRuntimeOf(v),
  alertAfter: alertAfterOf(v.alert_after ?? '1')!,
});

/**
 * A monitor's fields with their checks as you type and the next runs of the schedule: the New
 * monitor screen starts it empty, the Edit screen with the monitor's values. `onSave` gets the
 * values as the API takes them, the max run time and the failure in a row that alerts (each its own request:
 * PUT /api/monitors/{id}/max-runtime and …/alert-after); a 422 any throws lands next to its field.
 */
export function MonitorForm(props: {
  label: string;
  initial: MonitorFormValues;
  submitLabel: string;
  busyLabel: string;
  cancelHref: string;
  onSave: (save: MonitorSave) => Promise<void>;
  /**
   * An edited period's coming run, counted from its last run (lib/schedule.ts, periodNextRun): the
   * agent keeps that count unless the edit moves its runs (editMovesRuns: a new schedule; a period's
   * zone or grace moves none), and counts from the edit once it does.
   */
  keptRun?: { schedule: string; timezone: string; at: Date };
}) {
  // As the form opened: a refresh of the monitor meanwhile changes neither the fields nor what counts as changed.
  const [opened] = useState(() => ({ max_runtime: '', alert_after: '1', ...props.initial }));
  const { values, set, shown, clientErrors, formError, busy, submit } = useApiForm<FieldName>({
    idPrefix: 'monitor',
    initial: opened,
    validate: monitorFormErrors,
  });

  // "Paris" as typed is Europe/Paris: the preview and the API get the zone name.
  const zone = findTimeZone(values.timezone).zone ?? values.timezone;
  const kept = props.keptRun;
  const counted = kept && !editMovesRuns(kept, { schedule: values.schedule.trim(), timezone: zone }) ? kept.at : null;
  const runs = clientErrors.timezone
    ? null
    : counted
      ? [counted, ...(nextRuns(values.schedule, zone, 4, counted) as Date[])]
      : nextRuns(values.schedule, zone, 5, new Date());
  const words = scheduleInWords(values.schedule, clientErrors.timezone ? undefined : zone);

  const onSubmit = (event: FormEvent) =>
    submit(event, (v) => {
      const [before, after] = [saveOf(opened), saveOf(v)];
      const changed = {
        monitor: changedFields<NewMonitor>(before.monitor, after.monitor),
        maxRuntime: after.maxRuntime !== before.maxRuntime,
        alertAfter: after.alertAfter !== before.alertAfter,
      };
      return props.onSave({ ...after, changed });
    });

  return (
    <>
      <form className="form card" onSubmit={onSubmit} noValidate aria-label={props.label}>
        <FormError message={formError} />
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
            label="Schedule"
            error={shown('schedule')}
            hint={words ? `${words}.` : 'cron (0 2 * * *, @daily), systemd calendar events (Mon..Fri 09:00, one a line) or a period (@every 90m)'}
          >
            <textarea
              id="monitor-schedule"
              className="code"
              rows={Math.max(1, values.schedule.split('\n').length)}
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
        <section className="next-runs" aria-labelledby="next-runs-title" data-testid="next-runs">
          <h2 id="next-runs-title">Next 5 runs</h2>
          {runs && !('error' in runs) && !clientErrors.schedule ? (
            <ol>
              {runs.map((run) => (
                <li key={run.getTime()}>
                  {/* The one format of the monitor's page: its zone, and UTC. */}
                  <ZonedTime value={run.getTime()} zone={zone} />
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">Shown once the schedule and the time zone are valid.</p>
          )}
        </section>
        <WholeNumberField
          id="monitor-duration"
          label="Grace (minutes)"
          error={shown('duration')}
          hint="How long after each scheduled run a pulse may take to arrive before the monitor fails."
          value={values.duration}
          onChange={(value) => set('duration', value)}
        />
        <WholeNumberField
          id="monitor-max_runtime"
          label="Max run time (minutes)"
          error={shown('max_runtime')}
          hint="Optional: how long a started run may take before it is stuck. Empty: no limit (a start that never ends is told at the next run's deadline)."
          value={values.max_runtime}
          placeholder="No limit"
          onChange={(value) => set('max_runtime', value)}
        />
        <AlertAfterField value={values.alert_after} error={shown('alert_after')} onChange={(value) => set('alert_after', value)} />
        <Field id="monitor-tags" label="Tags" error={shown('tags')} hint="Optional, separated by commas or spaces (prod, db, server:web-01): to list, badge and silence monitors together.">
          <input
            id="monitor-tags"
            value={values.tags}
            onChange={(e) => set('tags', e.target.value)}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={Boolean(shown('tags'))}
            aria-describedby={describedBy('monitor-tags', true, shown('tags'))}
          />
        </Field>
        <FormActions cancelHref={props.cancelHref} busy={busy} submitLabel={props.submitLabel} busyLabel={props.busyLabel} />
      </form>
    </>
  );
}
