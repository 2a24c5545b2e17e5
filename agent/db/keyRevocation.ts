import type { Store } from './store';
import { newPulseToken } from './monitorTokens';

/**
 * Revokes a live key (of `companyId` when given: a key revokes only its own company's) and, in the
 * same transaction, gives new pulse tokens to the monitors its job lines hold: each line was told
 * its monitor's token (X-Cronbeat-Monitor-Token), so a stolen key's holder would otherwise go on
 * keeping those monitors green by token after the key is gone. The ids of those monitors, or null
 * when there was no such live key.
 */
export function revokeKey(store: Pick<Store, 'db' | 'apiTokens' | 'monitors' | 'monitorLines'>, keyId: number, now: number, companyId?: number): number[] | null {
  return store.db.transaction(() => {
    const revoked = companyId === undefined ? store.apiTokens.revoke(keyId, now) : store.apiTokens.revokeOfCompany(companyId, keyId, now);
    if (!revoked) return null;
    const held = store.monitorLines.heldByKey(keyId);
    for (const monitor of held) newPulseToken(store, monitor.company_id, monitor.id, now);
    return held.map((monitor) => monitor.id);
  })();
}
