import type { Alert } from './alert';
import type { NotificationData } from './notificationKinds';
import {
  alertState,
  alertTitle,
  alertTone,
  expectedLine,
  lastLines,
  readableOutput,
  ranLine,
  scheduleLine,
  whatHappened,
  type AlertTone,
  type WordsContext,
} from './words';
import { cutText, cutTextStart, largestFitting, oneLine, TITLE_CHARS } from '../text/chatText';

/** How much of what happened a message says (a server's own words can be long); a title is cut at TITLE_CHARS. */
const WHAT_CHARS = 1000;

/** How much of what a job said each kind of place shows: a few lines on a lock screen or in chat, more in an inbox. */
export const OUTPUT_BOUNDS = {
  popup: { lines: 2, chars: 200 },
  chat: { lines: 5, chars: 1000 },
  email: { lines: 60, chars: 4000 },
} as const;

export type OutputBound = (typeof OUTPUT_BOUNDS)[keyof typeof OUTPUT_BOUNDS];

/** An alert laid out for people: each channel arranges these pieces in its own format. */
export interface AlertMessage {
  tone: AlertTone;
  /** FAILED, MISSED, STUCK, RECOVERED, STILL FAILING… */
  state: string;
  /** "nightly-backup on web-1 failed (exit 3)" */
  title: string;
  /** What happened, one sentence with its times. */
  what: string;
  /** Expected time, duration and schedule lines, those that are known. */
  facts: string[];
  /** The last lines the job said (bounded for the place), oldest first. */
  output: string[];
  /** True when the job said more than `output` shows. */
  outputCut: boolean;
  /** The page to open: the monitor's (or certificate's, server's) page under the public URL. */
  link: string;
}

export interface MessageContext extends WordsContext {
  /** The dashboard's base address as the admin opens it (--public-url, else where the agent listens). */
  publicUrl: string;
}

/** The dashboard page of what a notification is about (the dashboard routes by the URL's fragment). */
export function subjectLink(subject: { type: NotificationData['type']; type_id: number }, publicUrl: string): string {
  const base = `${publicUrl.replace(/\/+$/, '')}/#`;
  if (subject.type === 'monitor' && subject.type_id > 0) return `${base}/monitors/${subject.type_id}`;
  if (subject.type === 'server' && subject.type_id > 0) return `${base}/servers/${subject.type_id}`;
  if (subject.type === 'ssl_certificate') return `${base}/certificates`;
  return `${base}/`;
}

/** The monitors page filtered by state: where a digest's "and N more" leads. */
export function monitorsLink(publicUrl: string, status?: 'failed'): string {
  return `${publicUrl.replace(/\/+$/, '')}/#/monitors${status ? `?status=${status}` : ''}`;
}

/** `alert` laid out, with what the job said cut to `bound`. */
export function alertMessage(alert: Alert, subject: { type: NotificationData['type']; type_id: number }, context: MessageContext, bound: OutputBound): AlertMessage {
  const tail = alert.run?.output_tail ?? null;
  const output = lastLines(tail, bound.lines, bound.chars);
  const shownChars = output.reduce((n, line) => n + line.length + 1, 0);
  return {
    tone: alertTone(alert),
    state: alertState(alert),
    title: cutText(oneLine(alertTitle(alert)), TITLE_CHARS),
    what: cutText(whatHappened(alert, context), WHAT_CHARS),
    facts: [ranLine(alert, context), expectedLine(alert, context), scheduleLine(alert)].filter((l): l is string => l !== null),
    output,
    outputCut: Boolean(alert.run?.output_truncated) || (tail !== null && shownChars < readableOutput(tail).trim().length),
    link: subjectLink(subject, context.publicUrl),
  };
}

/**
 * `message` with as much of the end of its output as `fits` a place (the whole message rendered
 * and measured): the title and what happened always show, the output gives way.
 */
export function fitOutput(message: AlertMessage, fits: (message: AlertMessage) => boolean): AlertMessage {
  const whole = message.output.join('\n');
  const cut = (chars: number): AlertMessage => {
    const kept = cutTextStart(whole, chars);
    return { ...message, output: kept ? kept.split('\n') : [], outputCut: message.outputCut || chars < whole.length };
  };
  return cut(largestFitting(whole.length, (chars) => fits(cut(chars))));
}

/** The message as plain text (chat fallbacks, ntfy, the email's text part). */
export function plainText(message: AlertMessage, options: { title?: boolean } = {}): string {
  const lines = [options.title === false ? '' : message.title, message.what, ...message.facts];
  if (message.output.length) lines.push(message.outputCut ? 'Last output (end):' : 'Output:', ...message.output.map((l) => `  ${l}`));
  lines.push(`Open: ${message.link}`);
  return lines.filter((l) => l !== '').join('\n');
}
