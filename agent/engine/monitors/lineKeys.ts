import { randomUUID } from 'node:crypto';
import type { MonitorRow } from '../../db/monitors';
import { slugOf } from '../../domain/monitors/ownLine';
import type { EngineContext } from '../engineContext';

type Ctx = Pick<EngineContext, 'store' | 'events'>;

export type Handover =
  | { kind: 'done'; monitor: MonitorRow }
  | { kind: 'no-monitor' }
  | { kind: 'no-key' }
  | { kind: 'no-slug' }
  | { kind: 'slug-taken'; slug: string };

/**
 * An admin hands a monitor to the line of key `keyId` (a live ping or full key of the company):
 * from then on that key's line, and no other, pulses and changes it by its slug. The way to let
 * a line keep a monitor made in the dashboard, one whose key was revoked, or one a line made
 * before Cronbeat recorded keys. A monitor without a slug gets its name's; one taken from another
 * key's line gets a new pulse token; the history says who the monitor was handed from and to.
 */
export function handLineMonitor({ store, events }: Ctx, companyId: number, monitorId: number, keyId: number, now: number): Handover {
  const outcome = store.db.transaction((): Handover => {
    const monitor = store.monitors.find(companyId, monitorId);
    if (!monitor) return { kind: 'no-monitor' };
    const key = store.apiTokens.findLive(companyId, keyId);
    if (!key || (key.scope !== 'ping' && key.scope !== 'full')) return { kind: 'no-key' };
    const slug = monitor.slug ?? slugOf(monitor.name);
    if (!slug) return { kind: 'no-slug' };
    const holder = store.monitorLines.findBySlug(companyId, slug);
    if (holder && holder.id !== monitor.id) return { kind: 'slug-taken', slug };
    if (monitor.line_key_id === keyId && monitor.slug === slug) return { kind: 'done', monitor };
    store.monitorLines.handTo(monitor.id, keyId, slug, now);
    // The key it is taken from was told its token (its line's answers name it): the monitor gets a new one,
    // which the new key's line is told at its next pulse. One made in the dashboard keeps its own, which
    // crontab lines may ping it by.
    const fromAnotherLine = monitor.line_key_id !== null && monitor.line_key_id !== keyId;
    if (fromAnotherLine) store.monitors.rotateToken(companyId, monitor.id, randomUUID(), now);
    store.monitorLines.recordChange(monitor.id, now, 'api', {
      line_key_id: { from: monitor.line_key_id, to: keyId },
      ...(monitor.slug === slug ? {} : { slug: { from: monitor.slug, to: slug } }),
      ...(fromAnotherLine ? { token: { from: 'old', to: 'new' } } : {}),
    });
    return { kind: 'done', monitor: store.monitors.find(companyId, monitorId)! };
  })();
  if (outcome.kind === 'done') events.emit({ type: 'monitor.changed', companyId, monitorId });
  return outcome;
}
