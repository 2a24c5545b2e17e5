import type { StdioOptions } from 'node:child_process';
import { fstatSync, readdirSync, readlinkSync } from 'node:fs';

/*
 * A job run alone gets every file descriptor its caller left open: a lock a crontab line holds for
 * it (`cronbeat run … -- sh -c 'flock -n 9 || exit 1; backup' 9>/run/backup.lock`), a log on fd 3,
 * a socket handed down by systemd. Node marks the low ones close-on-exec as it starts, so a job
 * started through `run` lost them (`9: Bad file descriptor`, and the job failed). They are read
 * here once, as this module loads (main.ts loads it before anything of ours opens a file), from
 * /proc/self/fd, and given to the job at the same numbers. Node's own descriptors at that moment are
 * its event loop's (anon_inode) and its pipes to itself (both ends held here): those are left out.
 * Off Linux there is no /proc to read, and the job gets 0, 1 and 2 as before.
 */

interface InheritedFd {
  fd: number;
  dev: number;
  ino: number;
}

/** The descriptors above 2 this process was started with, as far as /proc tells; none where it cannot be read. */
function readInheritedFds(): InheritedFd[] {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const targets = new Map<number, string>();
  for (const name of names) {
    const fd = Number(name);
    if (!(fd > 2)) continue;
    try {
      targets.set(fd, readlinkSync(`/proc/self/fd/${name}`));
    } catch {
      // Closed meanwhile: the listing's own descriptor.
    }
  }
  const held = new Map<string, number>();
  targets.forEach((target) => held.set(target, (held.get(target) || 0) + 1));
  const inherited: InheritedFd[] = [];
  targets.forEach((target, fd) => {
    if (target.indexOf('anon_inode:') === 0 || (target.indexOf('pipe:') === 0 && (held.get(target) || 0) > 1)) return;
    if (target === `/proc/${process.pid}/fd` || target === '/proc/self/fd') return;
    try {
      const { dev, ino } = fstatSync(fd);
      inherited.push({ fd, dev, ino });
    } catch {
      // Gone already.
    }
  });
  return inherited.sort((a, b) => a.fd - b.fd);
}

const AT_START = readInheritedFds();

/**
 * `stdio` for the job, with every descriptor this process was started with and still holds
 * (the same file at the same number: one closed since, like the fail-open shim's, is not passed).
 */
export function withInheritedFds(stdio: StdioOptions): StdioOptions {
  const first: unknown[] = typeof stdio === 'string' ? [stdio, stdio, stdio] : stdio.slice(0, 3);
  const still = AT_START.filter(({ fd, dev, ino }) => {
    try {
      const now = fstatSync(fd);
      return now.dev === dev && now.ino === ino;
    } catch {
      return false;
    }
  });
  if (still.length === 0) return stdio;
  const all = first;
  while (all.length < 3) all.push('pipe');
  for (let fd = 3; fd <= still[still.length - 1].fd; fd++) all.push('ignore');
  for (const { fd } of still) all[fd] = fd;
  return all as StdioOptions;
}
