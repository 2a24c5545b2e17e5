import { randomUUID } from 'node:crypto';
import type { Store } from './store';

/**
 * Gives a live monitor a new pulse token, and notes in its history that it did (never either
 * token): the old one matches nothing from now on. Call it in a transaction. False when there
 * was no such live monitor.
 */
export function newPulseToken(store: Pick<Store, 'monitors' | 'monitorLines'>, companyId: number, monitorId: number, now: number): boolean {
  if (!store.monitors.rotateToken(companyId, monitorId, randomUUID(), now)) return false;
  store.monitorLines.recordChange(monitorId, now, 'api', { token: { from: 'old', to: 'new' } });
  return true;
}
