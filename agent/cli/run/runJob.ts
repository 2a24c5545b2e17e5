import type { ChildProcess } from 'node:child_process';
import { closeSync, readFileSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { monotonicMs } from '../../client/pulses/monotonic';
import { OutputTail } from '../../client/pulses/outputTail';
import { ENDING_SIGNALS } from '../signals';
import { notRunnableStatus, spawnJob } from './rawWords';
import { describeError } from '../../domain/text/errorText';

/*
 * Running the job of `cronbeat run`. This and the reading of the arguments are all that loads
 * before the job starts: monitoring loads after, so nothing of it can keep the job from running.
 */

/*
 * Signals sent to `cronbeat run` are meant for the job (`pkill -USR1 -f backup` matches both):
 * every one whose default would end or change cronbeat (signals.ts) is passed on, rather than
 * cronbeat dying of it and leaving the job writing into a closed pipe.
 */
const FORWARDED_SIGNALS = ENDING_SIGNALS;
/** The signals a terminal's keys send (Ctrl-C, Ctrl-\) to its whole foreground process group. */
const KEYBOARD_SIGNALS: ReadonlySet<string> = new Set(['SIGINT', 'SIGQUIT']);

/** The fields of /proc/PID/stat after "pid (name) ": state, ppid, pgrp, session, tty_nr, tpgid (-1 without a terminal)…; null where unreadable. */
function statOf(pid: number | 'self'): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * Whether the job is in this process's group and that group is its terminal's foreground one
 * (Linux; false where that cannot be read): then a Ctrl-C has reached the job already, and sent
 * again, one Ctrl-C would be two, which many programs read as "stop now, skip the cleanup".
 */
function jobInTerminalForeground(job: number | undefined): boolean {
  const own = statOf('self');
  const its = job === undefined ? null : statOf(job);
  return own !== null && its !== null && own[2] === own[5] && its[2] === own[2];
}

/**
 * Passes the signals sent to this process on to the job, given by `to` once it is spawned, until
 * `stop`. Set up before the spawn: on a busy machine the job can start and be signalled (systemd
 * stopping the unit, `timeout`) before this process runs again after the spawn, and a signal with
 * no handler yet ended `run`, leaving the job behind. One that comes before the job is given waits for it.
 */
export function forwardSignals(afterExit?: (signal: NodeJS.Signals) => void): { to: (child: ChildProcess) => void; stop: () => void } {
  let job: ChildProcess | undefined;
  const waiting: NodeJS.Signals[] = [];
  const forward = (signal: NodeJS.Signals) => {
    if (!job) waiting.push(signal);
    else if (job.exitCode !== null || job.signalCode !== null) afterExit?.(signal);
    else if (!(KEYBOARD_SIGNALS.has(signal) && jobInTerminalForeground(job.pid))) job.kill(signal);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  return {
    to(child) {
      job = child;
      for (const signal of waiting.splice(0)) forward(signal);
    },
    stop() {
      for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
    },
  };
}

/**
 * How long after the job exits its output may still take to arrive before the end is reported
 * without the rest: a process the job left behind (`nohup worker &`) can hold the output open for days.
 */
const DRAIN_AFTER_EXIT_MS = 1_000;

export interface JobResult {
  status: number;
  output: string;
  /** When the job ended, on the monotonic clock (monotonicMs()). */
  endedAt: number;
  /** Why the command could not start, when it could not. */
  startError?: string;
}

/** Tells the fail-open shim (agent/cli/crontab/shim.ts) that the job is starting now; never throws. */
function signalStarted(fd: number | null): void {
  if (fd === null) return;
  try {
    writeSync(fd, 'started');
    closeSync(fd); // closed before the spawn, so the job never holds the shim's pipe open
  } catch {
    // No shim listening: nothing to tell.
  }
}

/** The shim's --started-fd: a file descriptor from 3 up; null when absent or unusable. */
export function startedFdOf(value: string | undefined): number | null {
  if (value === undefined) return null;
  const fd = Number(value);
  return Number.isInteger(fd) && fd >= 3 ? fd : null;
}

/** Runs the command with stdio passed through, keeping the tail of its output. */
export function runJob(command: string[], startedFd: number | null): Promise<JobResult> {
  return new Promise((resolve) => {
    const tail = new OutputTail();
    signalStarted(startedFd);
    let child: ChildProcess;
    let exited: { status: number; endedAt: number } | undefined;
    // Once the job has ended, a signal is for no one else: while a process the job left holds its
    // output (`nohup worker &`), run waits for that output, and a signal sent to it (systemd stopping
    // the unit, `timeout`) ends it with the job's status, unless the reporting takes the signal itself.
    const forwarding = forwardSignals((signal) => {
      if (exited && process.listenerCount(signal) === 1) process.exit(exited.status);
    });
    let kept = true;
    try {
      child = spawnJob(command, { stdio: ['inherit', 'pipe', 'pipe'] });
      if (!child.stdout || !child.stderr) {
        // No descriptors left for the pipes that keep its output (a low `ulimit -n`: Node holds some
        // twenty itself): that spawn made nothing and reports EMFILE. A shell would have run the job,
        // so it runs on this process's own output, which is then not kept for the pulse.
        child.on('error', () => undefined);
        child = spawnJob(command, { stdio: 'inherit' });
        kept = false;
      }
    } catch (error) {
      forwarding.stop();
      // An empty command name is refused before any process is made.
      const startError = `cannot start "${command[0]}": ${describeError(error)}`;
      return resolve({ status: 127, output: `cronbeat: ${startError}\n`, startError, endedAt: monotonicMs() });
    }
    forwarding.to(child);
    const passThrough = (from: Readable, to: NodeJS.WriteStream, name: string) => {
      // A reader that went away (`cronbeat run … | head`) or a log on a full disk must not stop or
      // kill the job: its output is still read, and kept for the pulse.
      let broken = false;
      const stop = (error: NodeJS.ErrnoException) => {
        if (broken) return;
        broken = true;
        from.resume();
        // A reader gone is the ordinary end of a pipe; output lost to anything else is worth a line.
        if (error.code !== 'EPIPE' && name === 'stdout') {
          console.error(`cronbeat: the job's standard output cannot be written (${describeError(error)}): it runs on, and the tail of its output still goes to the monitor`);
        }
      };
      to.on('error', stop);
      from.on('data', (chunk: Buffer) => {
        tail.push(chunk);
        if (broken) return;
        try {
          // Slow readers of our output slow the job down instead of filling memory.
          if (!to.write(chunk)) {
            from.pause();
            to.once('drain', () => from.resume());
          }
        } catch (error) {
          // A file is written synchronously: a full disk throws here instead of emitting 'error'.
          stop(error as NodeJS.ErrnoException);
        }
      });
    };
    if (kept) {
      passThrough(child.stdout!, process.stdout, 'stdout');
      passThrough(child.stderr!, process.stderr, 'stderr');
    } else {
      tail.push(Buffer.from('cronbeat: too few file descriptors left for the pipes that keep the output (ulimit -n): the job wrote straight to its own output\n'));
    }

    let startError: string | undefined;
    let startStatus = 127;
    child.on('error', (error: NodeJS.ErrnoException) => {
      // Only a failed start lands here for a child with piped stdio.
      startError = `cannot start "${command[0]}": ${error.code === 'ENOENT' ? 'command not found' : error.code === 'EACCES' ? 'permission denied' : error.message}`;
      startStatus = notRunnableStatus(error);
    });
    const statusOf = (code: number | null, signal: NodeJS.Signals | null) => code ?? 128 + (signal ? constants.signals[signal] : 0);
    let drain: NodeJS.Timeout | undefined;
    child.on('exit', (code, signal) => {
      exited = { status: statusOf(code, signal), endedAt: monotonicMs() };
      // Usually the output closes with the job and 'close' answers; if something the job started
      // keeps it open, the end is reported now, and the output still passes through until it
      // closes (this process lives until then, so that process never writes into a closed pipe).
      drain = setTimeout(() => resolve({ ...exited!, output: tail.text() }), DRAIN_AFTER_EXIT_MS);
    });
    child.on('close', (code, signal) => {
      clearTimeout(drain);
      forwarding.stop();
      if (startError) return resolve({ status: startStatus, output: `cronbeat: ${startError}\n`, startError, endedAt: monotonicMs() });
      resolve({ status: statusOf(code, signal), output: tail.text(), endedAt: exited?.endedAt ?? monotonicMs() });
    });
  });
}
