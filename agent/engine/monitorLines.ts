import { randomUUID } from 'node:crypto';
import type { MonitorRow } from '../db/monitors';
import { tagsOf } from '../db/monitorLines';
import { defaultGraceMinutes, newMonitorTiming } from '../domain/dueTime';
import { lineEdit, sortedTags, type LineSpec } from '../domain/monitorLine';
import type { EngineContext } from './engineContext';
import { editMonitor } from './monitorEdits';

type Ctx = Pick<EngineContext, 'store' | 'events'>;

/** The zone of a monitor a line creates without saying one (a curl line; the CLI always says its machine's). */
export const LINE_DEFAULT_TIMEZONE = 'UTC';

export type LineOutcome =
  | { kind: 'found'; monitor: MonitorRow; created: boolean }
  | { kind: 'missing' }
  | { kind: 'needs-schedule' };

/**
 * The monitor a job's line names by `slug`, made to say what the line says (issue 23). With
 * `create`, a slug no live monitor has yet is given to a monitor of that name made before (in
 * the dashboard), or else creates one: the insert is an upsert on the unique (company, slug)
 * index, so of two runs starting at the same instant one creates and the other finds it. A
 * monitor found is edited to the line's schedule, zone and grace, and its history says the line
 * did it.
 */
export function monitorForLine(ctx: Ctx, companyId: number, slug: string, line: LineSpec, create: boolean, now: number): LineOutcome {
  const { store, events } = ctx;
  const outcome = store.db.transaction((): LineOutcome => {
    let monitor = store.monitorLines.findBySlug(companyId, slug) ?? (create ? store.monitorLines.adopt(companyId, slug) : null);
    if (!monitor && !create) return { kind: 'missing' };
    if (!monitor) {
      if (line.schedule === undefined) return { kind: 'needs-schedule' };
      const spec = {
        schedule: line.schedule,
        timezone: line.timezone ?? LINE_DEFAULT_TIMEZONE,
        durationMinutes: line.grace ?? defaultGraceMinutes(line.schedule, now),
      };
      const inserted = store.monitorLines.insert({
        companyId,
        slug,
        name: line.name ?? slug,
        token: randomUUID(),
        timezone: spec.timezone,
        schedule: spec.schedule,
        duration: spec.durationMinutes,
        tags: sortedTags(line.tags).join(' '),
        ...newMonitorTiming(spec, now),
        now,
      });
      if (inserted) {
        store.monitorLines.recordChange(inserted.id, now, 'line', {
          created: { from: null, to: { slug, schedule: spec.schedule, timezone: spec.timezone, duration: spec.durationMinutes } },
        });
        return { kind: 'found', monitor: inserted, created: true };
      }
      monitor = store.monitorLines.findBySlug(companyId, slug)!;
    }
    const edit = lineEdit({ ...monitor, tags: tagsOf(monitor) }, line);
    if (edit) monitor = editMonitor(ctx, companyId, monitor.id, edit, now, 'line') ?? monitor;
    return { kind: 'found', monitor, created: false };
  })();
  if (outcome.kind === 'found' && outcome.created) events.emit({ type: 'monitor.changed', companyId, monitorId: outcome.monitor.id });
  return outcome;
}
