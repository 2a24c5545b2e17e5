import type { Db } from './open';
import { oneRow } from './rows';
import type { MonitorRow } from './monitors';

/**
 * The columns a pulse reads of its monitor (agent/engine/monitors/pulses.ts): its timing state,
 * not its name, token or words. Every column read costs, strings most: this runs for every pulse.
 */
const PULSE_COLUMNS = [
  'id', 'company_id', 'timezone', 'schedule', 'duration', 'last_run_at', 'is_alerted', 'due_at', 'expected_run_at', 'running_since',
  'running_rid', 'grace_from', 'pulses_kept', 'paused_at', 'paused_until', 'state_since', 'failed_at', 'alert_reason_data',
  'max_runtime', 'alert_after', 'failures', 'alert_sent', 'tags',
] as const;
export type PulseMonitorRow = Pick<MonitorRow, (typeof PULSE_COLUMNS)[number]>;

/** A live monitor as a pulse reads it. */
export function pulseMonitorRepository(db: Db) {
  const byToken = oneRow<PulseMonitorRow>(db, `SELECT ${PULSE_COLUMNS.join(', ')} FROM monitors WHERE token = ? AND deleted_at IS NULL`);
  return {
    /** The live monitor with that pulse token, whatever its company (the token is the secret); null when none. */
    byToken(token: string): PulseMonitorRow | null {
      return byToken(token);
    },
  };
}
