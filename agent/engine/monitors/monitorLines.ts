import { DEFAULT_ALERT_AFTER } from '../../domain/monitors/failureStreak';
import { randomUUID } from 'node:crypto';
import type { MonitorRow } from '../../db/monitors';
import { tagsOf } from '../../db/monitorLines';
import { defaultGraceMinutes, newMonitorTiming } from '../../domain/monitors/dueTime';
import { lineEdit, sortedTags, type LineSpec } from '../../domain/monitors/ownLine';
import { maxLineMonitors, refilled, spent, waitForCreation, type CreationBucket } from '../../domain/monitors/lineLimits';
import { isRetryOf, type PulseGist } from '../../domain/monitors/pulseInput';
import type { EngineContext } from '../engineContext';
import { editMonitor } from './monitorEdits';

type Ctx = Pick<EngineContext, 'store' | 'events'>;

/** The zone of a monitor a line creates without saying one (a curl line; the CLI always says its machine's). */
export const LINE_DEFAULT_TIMEZONE = 'UTC';

/** Why a line may not pulse or change the monitor its slug names: whose it is. */
export type NotYours = 'another-key' | 'revoked-key' | 'unrecorded' | 'dashboard';

export type LineOutcome =
  | { kind: 'found'; monitor: MonitorRow; created: boolean }
  | { kind: 'missing' }
  | { kind: 'needs-schedule' }
  | { kind: 'not-yours'; why: NotYours; monitorId: number }
  | { kind: 'key-reused' }
  | { kind: 'over-cap'; max: number }
  | { kind: 'too-fast'; retryAfterMs: number };

/** The key a line's pulse came with. */
export interface LineKey {
  id: number;
  companyId: number;
  /** Its own `max_monitors` (null: the default). */
  maxMonitors: number | null;
}

/** New monitors each key's lines may make per minute (lineLimits.ts), kept for the life of the agent. */
export class CreationBudgets {
  private readonly buckets = new Map<number, CreationBucket>();

  /** Milliseconds before key `keyId` may make a monitor; 0: now. */
  wait(keyId: number, now: number): number {
    return waitForCreation(refilled(this.buckets.get(keyId), now));
  }

  spend(keyId: number, now: number): void {
    // Forgotten beyond a bound so memory stays small; a forgotten key starts with a full bucket, at most 30 more.
    if (this.buckets.size >= 10_000) this.buckets.clear();
    this.buckets.set(keyId, spent(refilled(this.buckets.get(keyId), now)));
  }
}

/**
 * The monitor a job's line names by `slug`, made to say what the line says. Only the
 * key whose line made a monitor (or an admin handed it to, handLineMonitor) may pulse it by its
 * slug or change it: another key's line, a line whose monitor's key is revoked, or a line naming
 * a monitor made in the dashboard gets `not-yours` and nothing changes. With `create`, a slug no
 * live monitor has yet creates one, within the key's limits (lineLimits.ts): the insert is an
 * upsert on the unique (company, slug) index, so of two runs starting at the same instant one
 * creates and the other finds it. A monitor found is edited to the line's schedule, zone and
 * grace, and its history says the line did it; not when the pulse it came with (`pulse`) is
 * one the monitor has under its Idempotency-Key already (a retry changes nothing), nor when that
 * key was used for another pulse (`key-reused`: the pulse is refused, so is the edit).
 */
export function monitorForLine(
  ctx: Ctx,
  key: LineKey,
  slug: string,
  line: LineSpec,
  create: boolean,
  now: number,
  budgets: CreationBudgets,
  pulse: PulseGist & { idempotencyKey: string | null } = { kind: 'success', exitCode: null, rid: null, idempotencyKey: null },
): LineOutcome {
  const { store, events } = ctx;
  const { companyId } = key;
  const outcome = store.db.transaction((): LineOutcome => {
    let monitor = store.monitorLines.findBySlug(companyId, slug);
    if (!monitor) {
      if (!create) return { kind: 'missing' };
      if (line.schedule === undefined) return { kind: 'needs-schedule' };
      const max = maxLineMonitors(key.maxMonitors);
      if (store.monitorLines.countByKey(key.id) >= max) return { kind: 'over-cap', max };
      const retryAfterMs = budgets.wait(key.id, now);
      if (retryAfterMs > 0) return { kind: 'too-fast', retryAfterMs };
      // Spent by every attempt from here, made or not: looking for a dashboard monitor of that name
      // reads every name of the company, which a key must not be able to ask for without end.
      budgets.spend(key.id, now);
      const named = store.monitorLines.namedLike(companyId, slug);
      if (named) return { kind: 'not-yours', why: 'dashboard', monitorId: named.id };
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
        maxRuntime: line.maxRuntime ?? null,
        alertAfter: line.alertAfter ?? DEFAULT_ALERT_AFTER,
        tags: sortedTags(line.tags).join(' '),
        lineKeyId: key.id,
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
    if (monitor.line_key_id !== key.id) return { kind: 'not-yours', why: whoseInstead(ctx, monitor), monitorId: monitor.id };
    const first = pulse.idempotencyKey === null ? undefined : store.pulses.withKey(monitor.id, pulse.idempotencyKey);
    if (first) return isRetryOf(first, pulse) ? { kind: 'found', monitor, created: false } : { kind: 'key-reused' };
    const edit = lineEdit({ ...monitor, tags: tagsOf(monitor) }, line);
    if (edit) monitor = editMonitor(ctx, companyId, monitor.id, edit, now, 'line') ?? monitor;
    return { kind: 'found', monitor, created: false };
  })();
  if (outcome.kind === 'found' && outcome.created) events.emit({ type: 'monitor.changed', companyId, monitorId: outcome.monitor.id });
  return outcome;
}

function whoseInstead({ store }: Ctx, monitor: MonitorRow): NotYours {
  if (monitor.line_key_id === null) return 'unrecorded';
  return store.apiTokens.byId(monitor.line_key_id)?.revoked_at == null ? 'another-key' : 'revoked-key';
}
