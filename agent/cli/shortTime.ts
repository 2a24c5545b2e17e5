import { dayIn } from '../domain/schedules/clockTime';
import { machineZone } from './machineZone';

/** "2026-11-23 15:05 Europe/Paris": the time on this machine's clock, with its zone; "-" for none. */
export function shortTime(timestamp: string | number | null, zone = machineZone()): string {
  if (timestamp === null) return '-';
  const at = typeof timestamp === 'number' ? timestamp : Date.parse(timestamp);
  const clock = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `${dayIn(at, zone)} ${clock} ${zone}`;
}
