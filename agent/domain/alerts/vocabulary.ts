import type { AlertReason, MonitorReason } from './alert';
import { exitCodeWords } from './exitCodes';
import { describeDuration } from '../time/durations';

/*
 * The one vocabulary for what went wrong with a monitor, the same in the dashboard, the CLI, the
 * API's alert_reason, popups and every channel:
 *
 * - failed: the job said so (a non-zero exit, `ping --fail`, /fail);
 * - missed: no run came (no pulse for a run within its grace);
 * - stuck: a run is taking too long (past its max run time, or started and never finished).
 *
 * The sentence for each is made here once, as words with moments left as moments, and each edge
 * writes the moments in its own zones. A missed run names the run that did not come and the last
 * one that did: "the run due 14:02 did not come" never reads as if that run happened.
 */

export type Problem = 'failed' | 'missed' | 'stuck';

export const PROBLEMS = ['failed', 'missed', 'stuck'] as const satisfies readonly Problem[];

export interface ProblemWords {
  /** In a sentence and in a list: "failed". */
  word: string;
  /** On a badge and at a sentence's start: "Failed". */
  label: string;
  /** Where an inbox sorts by it: "FAILED". */
  state: string;
  /** What it means, for legends and help: "the job said so". */
  meaning: string;
}

export const PROBLEM_WORDS: Record<Problem, ProblemWords> = {
  failed: { word: 'failed', label: 'Failed', state: 'FAILED', meaning: 'the job said so' },
  missed: { word: 'missed', label: 'Missed', state: 'MISSED', meaning: 'no run came' },
  stuck: { word: 'stuck', label: 'Stuck', state: 'STUCK', meaning: 'a run is taking too long' },
};

/** Which of the three a reason is; a start whose end never came is stuck. Null for a recovery or another notice. */
export function problemOf(reason: AlertReason | null | undefined): Problem | null {
  switch (reason?.kind) {
    case 'failed':
      return 'failed';
    case 'missed':
      return 'missed';
    case 'stuck':
    case 'not_finished':
      return 'stuck';
    default:
      return null;
  }
}

/** Words with moments (UTC ms) for each edge to write in its zone. */
export type ReasonPiece = string | { at: number };

/** Minutes in the one duration formatter's words: "5 min", "2 h", "1 day 2 h 30 min". */
const describeMinutes = (minutes: number) => describeDuration(minutes * 60_000);

const momentOf = (iso: string): ReasonPiece => {
  const ms = Date.parse(iso);
  return { at: Number.isNaN(ms) ? 0 : ms };
};

/**
 * What happened, after the problem's word: "the run due ", {at}, " did not come (grace 5 min); last run ", {at}.
 * The edges put the word first (`reasonPieces`) or beside it (a badge). `nextDueAt`: for a start that never
 * finished, the run whose due time it outlived, where the caller knows it (an alert does).
 */
export function problemDetail(reason: MonitorReason, nextDueAt: number | null = null): ReasonPiece[] {
  const resumed = reason.kind === 'failed' || !reason.resumed_at ? null : momentOf(reason.resumed_at);
  switch (reason.kind) {
    case 'failed':
      return [reason.exit_code === null ? 'the job reported failure' : `the job exited with code ${exitCodeWords(reason.exit_code)}`];
    case 'missed': {
      const grace = describeMinutes(reason.grace_minutes);
      const due = ['the run due ', momentOf(reason.expected_at)];
      const notCome = resumed === null ? [` did not come (grace ${grace})`] : [` did not come, nor within ${grace} of Cronbeat resuming at `, resumed];
      // Known for failures raised since it was kept; older ones do not say (rather than say "none").
      const last =
        reason.last_run_at === undefined ? [] : reason.last_run_at === null ? ['; no run has come yet'] : ['; last run ', momentOf(reason.last_run_at)];
      return [...due, ...notCome, ...last];
    }
    case 'stuck': {
      const limit = describeMinutes(reason.max_runtime_minutes);
      const started = ['started ', momentOf(reason.started_at), `, still running after ${limit} (its max run time)`];
      return resumed === null ? started : [...started, ', and not ended after Cronbeat resumed at ', resumed];
    }
    case 'not_finished': {
      const grace = describeMinutes(reason.grace_minutes);
      const started = ['started ', momentOf(reason.started_at), ' and never finished'];
      if (resumed === null && nextDueAt !== null) return [...started, ': the run due ', { at: nextDueAt }, ` did not come either (grace ${grace})`];
      return resumed === null
        ? [...started, `: no end within ${grace} (its grace) of the next run's due time`]
        : [...started, `: no end within ${grace} of Cronbeat resuming at `, resumed];
    }
  }
}

/** The whole sentence, its word first: "Missed: the run due ", {at}, " did not come (grace 5 min); last run ", {at}. */
export function reasonPieces(reason: MonitorReason, nextDueAt: number | null = null): ReasonPiece[] {
  return [`${PROBLEM_WORDS[problemOf(reason)!].label}: `, ...problemDetail(reason, nextDueAt)];
}

/** Words with moments as text, each moment written by `moment`. */
export function writePieces(pieces: ReasonPiece[], moment: (ms: number) => string): string {
  return pieces.map((piece) => (typeof piece === 'string' ? piece : moment(piece.at))).join('');
}
