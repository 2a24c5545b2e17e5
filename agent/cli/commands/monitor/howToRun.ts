import { kindOf } from '../../../domain/schedules';
import { checkCalendar } from '../../../domain/schedules/calendar';
import { periodWords } from '../../../domain/schedules/period';
import { shellQuote } from '../../../domain/text/shellQuote';
import { systemdQuote } from '../../service/units';

/**
 * How to start a job under a new monitor, in the form of what runs it: a crontab line for a
 * cron schedule; a systemd timer for a calendar event (cron cannot read one), each OnCalendar= in
 * the monitor's zone unless it names its own; and for a period, the wrapped command alone, for
 * whatever starts the job that often. `args` is the command's words (cronbeat run TOKEN … -- JOB).
 */
export function howToRun(schedule: string, zone: string, machineZone: string, args: string[]): string[] {
  const kind = kindOf(schedule);
  if (kind === 'calendar') {
    const { lines = [], specs = [] } = checkCalendar(schedule);
    const events = lines.map((line, index) => `  OnCalendar=${specs[index]!.utc || specs[index]!.timezone ? line : `${line} ${zone}`}`);
    return [
      "Its systemd timer and service (a calendar event is not a crontab schedule; put the job's own command after --):",
      '  # the .timer',
      '  [Timer]',
      ...events,
      '  [Install]',
      '  WantedBy=timers.target',
      '  # the .service of the same name',
      '  [Service]',
      `  ExecStart=${args.map((arg, index) => systemdQuote(arg, { program: index === 0 })).join(' ')}`,
      // Stopping the unit signals `run` alone, which passes it on: by default systemd signals every
      // process of the unit, and the job would get each signal twice, directly and through `run`.
      '  KillMode=mixed',
    ];
  }
  const command = args.map(shellQuote).join(' ');
  if (kind === 'period') {
    return [`Start the job through this, ${periodWords(schedule)} (put the job's own command after --):`, `  ${command}`];
  }
  const line = [`Its crontab line (put the job's own command after --):`, `  ${schedule} ${command}`];
  if (zone === machineZone) return line;
  return [...line, `  (cron runs a line on its own clock, ${machineZone} here, unless CRON_TZ=${zone} comes before it; cronie reads CRON_TZ)`];
}
