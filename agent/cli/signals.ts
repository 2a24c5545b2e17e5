/*
 * The signals whose default would end a `cronbeat` process (or, SIGUSR1, open Node's debugger on
 * 127.0.0.1:9229 to every local user, in a process that often runs as root: a unit's ping, a
 * crontab watcher), that Node lets a process handle. Beyond SIGINT, SIGTERM and SIGHUP, one may
 * come from anyone's `pkill -f`, `systemctl kill` of a unit whose ping is running, runit's `sv
 * alarm` and daemontools' `svc -a` (SIGALRM); dying of it loses a pulse, or leaves run's job behind.
 */
export const ENDING_SIGNALS = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGQUIT',
  'SIGUSR1',
  'SIGUSR2',
  'SIGALRM',
  'SIGVTALRM',
  'SIGPROF',
  'SIGPWR',
  'SIGIO',
  'SIGSTKFLT',
  'SIGXCPU',
  'SIGTRAP',
  'SIGSYS',
] as const;

/** ENDING_SIGNALS but SIGUSR1, which asks nothing to stop (and is ignored where it is not passed on). */
export const STOPPING_SIGNALS = ENDING_SIGNALS.filter((signal) => signal !== 'SIGUSR1');
