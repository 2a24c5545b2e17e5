import { useState, type FormEvent } from 'react';
import type { MaintenanceWindowInput, MaintenanceWindowResource } from '../../../agent/contract/maintenanceWindows';
import { maintenanceWindowInput, windowShapeErrors } from '../../../agent/contract/maintenanceWindows';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { describedBy, Field } from '../components/Field';
import { ZoneField } from '../components/ZoneField';
import { findTimeZone } from '../../../agent/domain/time/timeZones';
import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading, StaleBanner } from '../components/states';
import { Time, ZoneHeading } from '../components/Time';
import { viewerZone } from '../lib/schedule';
import { useApp } from '../lib/app-context';
import { fieldErrors } from '../lib/formRules';
import { queries } from '../lib/queries';
import { useApiForm } from '../lib/use-api-form';
import { useResource } from '../lib/use-resource';
import './Maintenance.css';
import { useCanEdit } from '../lib/access';

type FieldName = 'name' | 'kind' | 'starts_at' | 'ends_at' | 'schedule' | 'timezone' | 'duration' | 'monitor_ids' | 'tags';

/** A datetime-local value (the viewer's clock) as a time with its zone; "" stays absent. */
const zoned = (local: string) => (local && !Number.isNaN(new Date(local).getTime()) ? new Date(local).toISOString() : local || undefined);
const list = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** The body the form sends: a one-off window's times, or a recurring one's schedule, zone and minutes. */
function windowBody(v: Record<FieldName, string>, monitorIds: number[]): MaintenanceWindowInput {
  const cover = { name: v.name || null, monitor_ids: monitorIds, tags: list(v.tags) };
  if (v.kind === 'recurring') {
    // A place as typed ("paris") is its zone, as on the monitor form: the API takes zone names only.
    const timezone = findTimeZone(v.timezone).zone ?? v.timezone;
    return { ...cover, schedule: v.schedule || undefined, timezone: timezone || undefined, duration: v.duration === '' ? undefined : Number(v.duration) };
  }
  return { ...cover, starts_at: zoned(v.starts_at), ends_at: zoned(v.ends_at) };
}

/**
 * What the form refuses, as the API would: each field's own check, then the window as a whole
 * (both times, Until after From; a schedule, a zone and minutes), so "Until before From" is said
 * as you type rather than after a round trip.
 */
function windowErrors(v: Record<FieldName, string>, monitorIds: number[]): Record<string, string> {
  const body = windowBody(v, monitorIds);
  const checked = maintenanceWindowInput.safeParse(body);
  if (!checked.success) return fieldErrors(maintenanceWindowInput, body);
  const w = checked.data;
  const shape = windowShapeErrors(
    {
      name: w.name ?? '',
      startsAt: w.starts_at ?? null,
      endsAt: w.ends_at ?? null,
      schedule: w.schedule ?? null,
      timezone: w.timezone ?? null,
      durationMinutes: w.duration ?? null,
      monitorIds: w.monitor_ids ?? [],
      tags: w.tags ?? [],
    },
    Date.now(),
  );
  return Object.fromEntries(Object.entries(shape).map(([field, messages]) => [field, messages[0]!]));
}

/** The API's names of the times, as this form labels them: "Until must be a time after From.", not "ends_at" and "starts_at". */
function inFormWords(message: string | undefined): string | undefined {
  return message
    ?.replace(/The starts at field/g, 'From')
    .replace(/The ends at field/g, 'Until')
    .replace(/\bstarts_at\b/g, 'From')
    .replace(/\bends_at\b/g, 'Until');
}

function whenText(w: MaintenanceWindowResource) {
  if (w.kind === 'recurring') {
    return (
      <>
        <span className="code">{w.schedule}</span> {w.timezone}, {w.duration} min
      </>
    );
  }
  // The viewer's clock, named as a recurring window names its own zone beside it.
  return (
    <>
      <Time value={w.starts_at} /> – <Time value={w.ends_at} /> {viewerZone()}
    </>
  );
}

function AddWindow(props: { onAdded: () => void; monitors: Array<{ id: number; name: string }> }) {
  const { api } = useApp();
  const [monitorIds, setMonitorIds] = useState<number[]>([]);
  const { values, set, shown: shownAsSent, formError, busy, submit, reset } = useApiForm<FieldName>({
    idPrefix: 'mw',
    initial: { name: '', kind: 'one_off', starts_at: '', ends_at: '', schedule: '', timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, duration: '60', monitor_ids: '', tags: '' },
    validate: (v) => windowErrors(v, monitorIds) as Record<FieldName, string | undefined>,
  });
  const shown = (field: FieldName) => inFormWords(shownAsSent(field));
  const onSubmit = (event: FormEvent) =>
    submit(event, async (v) => {
      await api.createMaintenanceWindow(windowBody(v, monitorIds));
      reset();
      setMonitorIds([]);
      props.onAdded();
    });
  const input = (field: FieldName, attributes: { type?: string; placeholder?: string; inputMode?: 'numeric' } = {}) => (
    <input
      id={`mw-${field}`}
      {...attributes}
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
      spellCheck={false}
      autoComplete="off"
      aria-invalid={Boolean(shown(field))}
      aria-describedby={describedBy(`mw-${field}`, false, shown(field))}
    />
  );
  const recurring = values.kind === 'recurring';
  return (
    <form className="inline-form card maintenance-form" onSubmit={onSubmit} noValidate aria-label="Add maintenance window">
      <Field id="mw-name" label="Name" error={shown('name')}>
        {input('name', { placeholder: 'database upgrade' })}
      </Field>
      <Field id="mw-kind" label="Kind">
        <select id="mw-kind" value={values.kind} onChange={(e) => set('kind', e.target.value)}>
          <option value="one_off">One-off</option>
          <option value="recurring">Recurring</option>
        </select>
      </Field>
      {recurring ? (
        <>
          <Field id="mw-schedule" label="Opens at (cron or calendar event)" error={shown('schedule')}>
            {input('schedule', { placeholder: '0 3 * * 0' })}
          </Field>
          <ZoneField id="mw-timezone" value={values.timezone} error={shown('timezone')} onChange={(value) => set('timezone', value)} />
          <Field id="mw-duration" label="Minutes" error={shown('duration')}>
            {/* Text, not type="number", which gives "" for what it cannot read ("6-0"): refused, not taken as empty. */}
            {input('duration', { inputMode: 'numeric' })}
          </Field>
        </>
      ) : (
        <>
          {/* A datetime-local field is the viewer's clock: say whose, as every time is labelled with its zone. */}
          <Field id="mw-starts_at" label={`From (${viewerZone()})`} error={shown('starts_at')}>
            {input('starts_at', { type: 'datetime-local' })}
          </Field>
          <Field id="mw-ends_at" label={`Until (${viewerZone()})`} error={shown('ends_at')}>
            {input('ends_at', { type: 'datetime-local' })}
          </Field>
        </>
      )}
      <Field id="mw-monitor_ids" label="Monitors (none: all)" error={shown('monitor_ids')}>
        <select
          id="mw-monitor_ids"
          multiple
          // A few rows at once: one row hid that there were more to pick.
          size={Math.min(4, Math.max(2, props.monitors.length))}
          value={monitorIds.map(String)}
          onChange={(e) => setMonitorIds([...e.target.selectedOptions].map((o) => Number(o.value)))}
        >
          {props.monitors.map((m) => (
            // The list is as wide as the form: a long name is cut there, and read whole on hover.
            <option key={m.id} value={m.id} title={m.name}>
              {m.name}
            </option>
          ))}
        </select>
      </Field>
      <Field id="mw-tags" label="Tags" error={shown('tags')}>
        {input('tags', { placeholder: 'db, prod' })}
      </Field>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Adding…' : 'Add'}
      </button>
      {formError ? (
        <div className="field-error" role="alert">
          {formError}
        </div>
      ) : null}
    </form>
  );
}

/** Maintenance windows: planned work during which the monitors they cover raise no alert. */
export function MaintenanceScreen() {
  const { api } = useApp();
  const windows = useResource(queries.maintenanceWindows(api));
  const monitors = useResource(queries.monitors(api));
  const [deleting, setDeleting] = useState<MaintenanceWindowResource | null>(null);
  const canEdit = useCanEdit();
  const names = new Map((monitors.data ?? []).map((m) => [m.id, m.name]));
  const covers = (w: MaintenanceWindowResource) => {
    const parts = [...w.monitor_ids.map((id) => names.get(id) ?? `monitor ${id}`), ...w.tags.map((t) => `#${t}`)];
    return parts.length === 0 ? 'Every monitor' : parts.join(', ');
  };

  let body;
  if (windows.loading) body = <Loading label="Loading maintenance windows…" />;
  else if (!windows.data) body = <ErrorState error={windows.error!} onRetry={windows.reload} />;
  else
    body = (
      <>
        <StaleBanner error={windows.error} onRetry={windows.reload} />
        {canEdit ? <AddWindow onAdded={windows.reload} monitors={monitors.data ?? []} /> : null}
        {windows.data.length === 0 ? (
          <EmptyState title="No maintenance windows">
            {canEdit ? 'Add one so planned work raises no alert: the monitors it covers wait for their next run after it.' : null}
          </EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  {/* Each When cell names its zone: a recurring window's own, a one-off's the viewer's. */}
                  <th scope="col">When</th>
                  <th scope="col">Covers</th>
                  {/* Starts and ends in the viewer's clock, whatever zone the window recurs in: say whose. */}
                  <th scope="col"><ZoneHeading label="Now" /></th>
                  {canEdit ? (
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {windows.data.map((w) => (
                  <tr key={w.id}>
                    <td className="cell-name">{w.name || <span className="muted">—</span>}</td>
                    <td>{whenText(w)}</td>
                    <td className="cell-names">{covers(w)}</td>
                    <td>
                      {w.active ? (
                        <>
                          In maintenance until <Time value={w.active_until} />
                        </>
                      ) : w.next_starts_at ? (
                        <>
                          Next <Time value={w.next_starts_at} />
                        </>
                      ) : (
                        <span className="muted">Over</span>
                      )}
                    </td>
                    {canEdit ? (
                      <td className="cell-actions">
                        <button type="button" className="button button-small button-danger-quiet" aria-label={`Remove window ${w.name || w.id}`} onClick={() => setDeleting(w)}>
                          Remove
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </>
    );

  return (
    <>
      <PageHeader title="Maintenance" subtitle="No alerts during planned work; covered monitors wait for their next run after it" />
      {body}
      <ConfirmDialog
        open={deleting !== null}
        title={`Remove ${deleting?.name || 'this maintenance window'}?`}
        message="The monitors it covered are watched as usual from their next run."
        confirmLabel="Remove window"
        busyLabel="Removing…"
        onConfirm={async () => {
          await api.deleteMaintenanceWindow(deleting!.id);
          windows.reload();
        }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
