/*
 * Which file names cron and run-parts read. The two families differ, and a watcher that reads
 * fewer names than the machine's cron lets a file planted under another name run unseen.
 */

/**
 * Names of letters, digits, `_` and `-` alone: what Debian's cron reads in /etc/cron.d and
 * Debian's run-parts (debianutils, without --lsbsysinit) runs; `backup.sh`, `x.bak` and
 * `x.dpkg-old` are neither read nor run there.
 */
const DEBIAN_NAME = /^[A-Za-z0-9_-]+$/;

/** Whether cron reads /etc/cron.d/`name`: Debian's by DEBIAN_NAME; cronie all but hidden, `#…`, `…~` and rpm's leftovers (database.c, not_a_crontab). */
export function cronDReads(name: string, debianCron: boolean): boolean {
  if (debianCron) return DEBIAN_NAME.test(name);
  return !name.startsWith('.') && !name.startsWith('#') && !name.endsWith('~') && !/\.(rpmsave|rpmorig|rpmnew)$/.test(name);
}

/**
 * Whether run-parts runs the file `name` of a folder (when it is executable): debianutils' by
 * DEBIAN_NAME; cronie's script all but hidden, `…~`, `…,` and editors' and rpm's leftovers.
 */
export function runPartsRuns(name: string, debianRunParts: boolean): boolean {
  if (debianRunParts) return DEBIAN_NAME.test(name);
  return !name.startsWith('.') && !/[~,]$/.test(name) && !/(\.cfsaved|\.rpmsave|\.rpmorig|\.rpmnew|\.swp|,v)$/.test(name);
}
