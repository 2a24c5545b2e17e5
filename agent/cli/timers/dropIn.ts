/*
 * The drop-in `cronbeat timers discover` gives a timer's service, pure. The service pulses
 * before it starts and reports its result after it stops, through Cronbeat's entry point (the
 * stable shim `crontab discover` installs). Every command has systemd's `-` prefix and runs
 * under /bin/sh, which checks the entry point first: a missing or broken Cronbeat never fails
 * the service, nor delays its start by more than one try of the start pulse (5 s).
 *
 * The unit carries the monitor's token, as healthchecks.io puts a check's ping URL in one: a
 * token lets its holder ping that monitor and nothing else (rotate it with `cronbeat monitor
 * rotate-token`). An API key, which reads and changes monitors, never goes in a unit.
 */

export const DROP_IN_NAME = 'cronbeat.conf';
export const DROP_IN_MARK = '# Written by `cronbeat timers discover`';

/** One word of an Exec= line, as systemd reads it back: double-quoted, with `$` and `%` kept literal. */
function execWord(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '$$$$').replace(/%/g, '%%')}"`;
}

/** A shell script as one Exec= word; it reads SHIM, TOKEN and URL as $0, $1 and $2. */
function scriptWord(script: string): string {
  return execWord(script);
}

// The service waits for the start pulse: an agent that does not answer costs it one try (5 s),
// not all of ping's tries (over 16 s, past a short TimeoutStartSec=). Stopped by timeout's TERM,
// ping keeps the pulse in the spool, and the result pulse after the run sends it first.
const START_PING = '"$0" ping "$1" --start --rid "$INVOCATION_ID" --url "$2"';
const START = `[ -x "$0" ] || exit 0; if command -v timeout >/dev/null; then timeout 5 ${START_PING}; exit 0; fi; exec ${START_PING}`;
// systemd sets SERVICE_RESULT, EXIT_CODE and EXIT_STATUS for ExecStopPost= (systemd.exec(5)):
// success is 0; an exit status of its own is kept; a signal, a timeout, a watchdog is a failure.
const STOP =
  'case "$SERVICE_RESULT" in success) c=0;; *) c=1; [ "$EXIT_CODE" = exited ] && [ "$EXIT_STATUS" -gt 0 ] 2>/dev/null && c=$EXIT_STATUS;; esac; ' +
  '[ -x "$0" ] && exec "$0" ping "$1" --exit-code "$c" --rid "$INVOCATION_ID" --url "$2" --message "systemd: $SERVICE_RESULT ($EXIT_CODE $EXIT_STATUS)"; exit 0';

export interface DropInInput {
  /** The monitor's id; a placeholder in a dry run, which makes no monitor. */
  monitorId: number | '<monitor-id>';
  timer: string;
  shim: string;
  token: string;
  url: string;
}

/** The drop-in's text. */
export function dropInText({ monitorId, timer, shim, token, url }: DropInInput): string {
  const args = [shim, token, url].map(execWord).join(' ');
  return [
    `${DROP_IN_MARK} for ${timer}: pulses to monitor #${monitorId}.`,
    '# `cronbeat timers discover --undo` removes it. The token lets its holder ping this monitor only.',
    '[Service]',
    `ExecStartPre=-/bin/sh -c ${scriptWord(START)} ${args}`,
    `ExecStopPost=-/bin/sh -c ${scriptWord(STOP)} ${args}`,
    '',
  ].join('\n');
}

/** The timer a drop-in of ours was written for (its first line says); null for another file. */
export function timerOfDropIn(text: string): string | null {
  if (!text.startsWith(DROP_IN_MARK)) return null;
  return /^.* for (.+): pulses to monitor #\d+\.$/.exec(text.slice(0, text.indexOf('\n')))?.[1] ?? null;
}

/** The monitor token of a drop-in this command wrote; null for any other file. */
export function tokenOfDropIn(text: string): string | null {
  if (!text.startsWith(DROP_IN_MARK)) return null;
  const match = /^ExecStartPre=-\/bin\/sh -c "(?:[^"\\]|\\.)*" "(?:[^"\\]|\\.)*" "([^"]*)"/m.exec(text);
  return match ? match[1]!.replace(/%%/g, '%').replace(/\$\$/g, '$') : null;
}
