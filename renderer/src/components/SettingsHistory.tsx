import { useApp } from '../lib/app-context';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import type { MonitorChange } from '../api/endpoints';
import { Time } from './Time';
import { ZonedTime } from './ZonedTime';

const FIELD_WORDS: Record<string, string> = {
  schedule: 'schedule',
  timezone: 'zone',
  duration: 'grace (min)',
  max_runtime: 'max run time (min)',
  alert_after: 'alert after (failures in a row)',
  name: 'name',
  project_id: 'project',
  tags: 'tags',
  line_key_id: 'line of key',
  slug: 'slug',
};

function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.length > 0 ? value.join(', ') : 'none';
  return String(value);
}

/** One change in words: "schedule 0 3 * * * → 30 2 * * *; grace (min) 60 → 15", or what a line created. */
export function describeChange(change: MonitorChange): string {
  const created = change.changes.created?.to as { slug?: string; schedule?: string; timezone?: string; duration?: number } | undefined;
  if (created) return `created the monitor “${created.slug}”: ${created.schedule} ${created.timezone}, grace ${created.duration} min`;
  return Object.entries(change.changes)
    .map(([field, { from, to }]) => (field === 'token' ? 'new pulse token (the old one is refused)' : `${FIELD_WORDS[field] ?? field} ${shown(from)} → ${shown(to)}`))
    .join('; ');
}

/** Who changed a monitor's settings: the job's own line or the dashboard and API, newest first. */
export function SettingsHistory(props: { monitorId: number; zone?: string }) {
  const { api } = useApp();
  const changes = useResource(queries.monitorChanges(api, props.monitorId));
  if (!changes.data || changes.data.length === 0) return null;
  return (
    <section className="card" aria-labelledby="settings-history-title">
      <h2 id="settings-history-title">Settings history</h2>
      <p className="muted">A monitor made by its job’s line follows that line: an edit here holds until the line’s next run.</p>
      <ul className="plain-list">
        {changes.data.map((change) => (
          <li key={change.id}>
            {props.zone ? <ZonedTime value={change.at} zone={props.zone} /> : <Time value={change.at} />} · <strong>{change.source === 'line' ? 'its job’s line' : 'dashboard or API'}</strong> ·{' '}
            {describeChange(change)}
          </li>
        ))}
      </ul>
    </section>
  );
}
