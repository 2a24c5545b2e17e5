import type { MonitorReason } from '../alerts/alert';
import { monitorsLink } from '../alerts/messageLimits';
import { humanTime, type AlertTone } from '../alerts/words';
import { describeDuration } from '../time/durations';
import { cutText, largestFitting, oneLine } from '../text/chatText';
import { frequencyWord } from './period';
import type { ReportData, ReportLine } from './numbers';

/*
 * A report laid out for people: a title, the period, the totals, then one line per monitor in
 * three sections (failing now, never ran, each monitor). Each channel kind marks it up in its own
 * way and shows as many lines as its service takes, then "… and N more monitors" and the link.
 */

export type ReportSection = 'failing' | 'never_ran' | 'monitors';

export const SECTION_HEADINGS: Record<ReportSection, string> = {
  failing: 'Failing now',
  never_ran: 'Never ran in this period',
  monitors: 'Each monitor (worst first)',
};

export interface ReportItem {
  section: ReportSection;
  /** The monitor the line is about: a monitor has a line in each of its sections. */
  id: number;
  text: string;
}

export interface ReportMessage {
  tone: AlertTone;
  /** "Daily report: 12 monitors, 2 failing now". */
  title: string;
  /** "Thu 26 Nov 08:00 – Fri 27 Nov 08:00 Europe/Berlin". */
  period: string;
  /** "148 runs, 3 failed, 1 missed, 2 never ran". */
  summary: string;
  items: ReportItem[];
  /** The monitors page, where every monitor is. */
  link: string;
}

/** How much of a monitor's name a line shows. */
export const REPORT_NAME_CHARS = 80;

/** "1,234": Intl's formatting costs microseconds a call, and a report of 10,000 monitors has 40,000 counts, nearly all small. */
const count = (n: number) => (n < 1000 ? String(n) : n.toLocaleString('en-US'));
const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;
const name = (text: string) => cutText(oneLine(text), REPORT_NAME_CHARS);

/** Why a monitor is failed, in the vocabulary of alerts: "failed (exit 3)", "missed", "stuck", "never finished". */
export function failingWords(reason: MonitorReason | null, fallback: string): string {
  if (!reason) return fallback || 'failed';
  switch (reason.kind) {
    case 'failed':
      return reason.exit_code === null ? 'failed' : `failed (exit ${reason.exit_code})`;
    case 'missed':
      return 'missed';
    case 'not_finished':
      return 'never finished';
    case 'stuck':
      return 'stuck';
  }
}

/** One monitor's line: "nightly-backup: 30 runs, 2 failed, 1 missed, longest 4 min 3 s, 97.92% up". */
export function monitorLine(line: ReportLine, timezone: string): string {
  const parts = [
    plural(line.runs, 'run'),
    `${count(line.failures)} failed`,
    `${count(line.missed)} missed`,
    ...(line.longest_run_ms === null ? [] : [`longest ${describeDuration(line.longest_run_ms)}`]),
    `${line.uptime_percent.toFixed(2)}% up`,
  ];
  const notes = [
    line.paused ? 'paused' : '',
    line.history_from === null ? '' : `counts from ${humanTime(line.history_from, timezone)}, older runs not kept`,
  ].filter(Boolean);
  return `${name(line.name)}: ${parts.join(', ')}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

/** "Daily report: 12 monitors, 2 failing now". */
export function reportTitle(report: ReportData): string {
  const t = report.totals;
  const failing = t.failing_now > 0 ? `${count(t.failing_now)} failing now` : 'none failing now';
  return `${frequencyWord(report.frequency)} report: ${plural(t.monitors, 'monitor')}, ${failing}`;
}

/** `report` laid out, its links under `publicUrl`. */
export function reportMessage(report: ReportData, publicUrl: string): ReportMessage {
  const zone = report.timezone;
  const t = report.totals;
  const summary = [
    plural(t.runs, 'run'),
    `${count(t.failures)} failed`,
    `${count(t.missed)} missed`,
    ...(t.never_ran ? [`${count(t.never_ran)} never ran`] : []),
  ].join(', ');
  const items: ReportItem[] = [
    ...report.failing_now.map((f) => ({
      section: 'failing' as const,
      id: f.id,
      text: `${name(f.name)}: ${f.reason}${f.since === null ? '' : ` since ${humanTime(f.since, zone)}`}`,
    })),
    ...report.never_ran.map((m) => ({ section: 'never_ran' as const, id: m.id, text: name(m.name) })),
    ...report.monitors.map((line) => ({ section: 'monitors' as const, id: line.id, text: monitorLine(line, zone) })),
  ];
  return {
    tone: t.failing_now > 0 ? 'bad' : t.failures + t.missed + t.never_ran > 0 ? 'warn' : 'good',
    title: reportTitle(report),
    period: `${humanTime(report.from, zone).replace(` ${zone}`, '')} – ${humanTime(report.to, zone)}`,
    summary,
    items,
    link: monitorsLink(publicUrl),
  };
}

/** How a place marks up a report: its escaping, a section's heading, and where the list stops for room. */
export interface ReportMarkup {
  escape(text: string): string;
  heading(text: string): string;
  /** "… and 37 more monitors" with the link to them all. */
  more(count: number, link: string): string;
}

/** "… and 37 more monitors" (monitors the message does not name at all); "… and more" when it named each already. */
export const moreMonitors = (count: number) => (count === 0 ? '… and more' : `… and ${count.toLocaleString('en-US')} more ${count === 1 ? 'monitor' : 'monitors'}`);

/** How many monitors the items after the first `shown` name that those before do not. */
function unnamed(items: readonly ReportItem[], shown: number): number {
  const named = new Set(items.slice(0, shown).map((item) => item.id));
  return new Set(items.slice(shown).map((item) => item.id).filter((id) => !named.has(id))).size;
}

/** The report's list with its first `shown` items, under their sections' headings, then how many were left out. */
export function reportBody(m: ReportMessage, shown: number, markup: ReportMarkup): string[] {
  const lines: string[] = [];
  let section: ReportSection | null = null;
  for (const item of m.items.slice(0, shown)) {
    if (item.section !== section) {
      if (section !== null) lines.push('');
      lines.push(markup.heading(SECTION_HEADINGS[item.section]));
      section = item.section;
    }
    lines.push(markup.escape(item.text));
  }
  if (shown < m.items.length) lines.push('', markup.more(unnamed(m.items, shown), m.link));
  return lines;
}

/** The most items a place takes: `fits` measures the whole message with that many. */
export function fitReportItems(m: ReportMessage, fits: (shown: number) => boolean): number {
  return largestFitting(m.items.length, fits);
}

/** The report as plain text (email's text part, ntfy, chat fallbacks). */
export function reportText(m: ReportMessage, shown: number, options: { title?: boolean } = {}): string {
  const plain: ReportMarkup = { escape: (t) => t, heading: (t) => `${t}:`, more: (n, link) => `${moreMonitors(n)}: ${link}` };
  const head = [options.title === false ? '' : m.title, m.period, m.summary].filter(Boolean);
  return [...head, '', ...reportBody(m, shown, plain), '', `Open: ${m.link}`].join('\n');
}
