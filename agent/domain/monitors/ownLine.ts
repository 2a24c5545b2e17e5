/*
 * Monitors made by a job's own line: the slug a name is matched by, tags, and what
 * a line changes on the monitor it names. Pure: the callers store and the CLI remembers.
 */

export const MAX_SLUG_LENGTH = 100;

/** Latin letters NFKD does not split into a base letter and an accent, spelt as their languages spell them in ASCII. */
const LATIN_LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/**
 * The slug of a monitor name: lower case ASCII letters, digits, `_` and `-`; accents dropped
 * (é → e, ß → ss, ø → o), every other run of characters one `-`, no `-` at either end, at most
 * 100 characters. "Nightly Backup", "nightly-backup" and "NIGHTLY_backup" → "nightly-backup",
 * "nightly-backup", "nightly_backup". Returns nothing when no letter a–z is left ("!!!", "日本"),
 * and for digits alone ("2024"): a badge URL reads `monitors/2024.svg` as the monitor with id 2024.
 * Returns nothing too for a name with look-alike characters (lookAlikesIn): "ｄｂ-ｄｕｍｐ" is not
 * the name "db-dump", and must not reach its monitor.
 */
export function slugOf(name: string): string | undefined {
  if (lookAlikesIn(name).length > 0) return undefined;
  const slug = name
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (letter) => LATIN_LETTERS[letter])
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^[-_]+|[-_]+$/g, '');
  return /[a-z]/.test(slug) ? slug : undefined;
}

/**
 * The characters of `name` that are a compatibility form of others (fullwidth "ｄ", the ligature
 * "ﬁ", superscript "²", the "Ⅻ" numeral): NFKC would fold them into plain letters, so a name
 * spelt with them looks like another one without being it. Accented letters (é, ß) are not among
 * them: they are letters of their own, and slugOf spells them in ASCII as their languages do.
 */
export function lookAlikesIn(name: string): string[] {
  return [...new Set([...name.normalize('NFC')].filter((character) => character.normalize('NFKC') !== character))];
}

/** Whether `text` is a slug already (what slugOf leaves unchanged): the form a URL path carries. */
export function isSlug(text: string): boolean {
  return slugOf(text) === text;
}

export const MAX_TAGS = 20;
const TAG = /^[a-z0-9][a-z0-9_.:-]{0,49}$/;

/**
 * A tag: 1–50 of lower case letters, digits and `_ . : -`, starting with a letter or digit
 * ("prod", "server:web-01", "team.db"). Given in any case, stored in lower case. Returns
 * nothing for anything else.
 */
export function tagOf(text: string): string | undefined {
  const tag = text.trim().toLowerCase();
  return TAG.test(tag) ? tag : undefined;
}

/** The tags of a monitor in one stored order: unique and sorted. */
export function sortedTags(tags: readonly string[]): string[] {
  return [...new Set(tags)].sort();
}

/** The tag a line's --server adds, so each server's jobs can be listed, scraped and badged together. */
export function serverTag(identifier: string): string | undefined {
  return tagOf(`server:${identifier}`);
}

/**
 * What a job's line says about its monitor, each part optional (a curl line may give only some).
 * The line is the source of truth for the schedule, zone and grace; its name only names a
 * monitor it creates (a rename in the dashboard stays, and the slug keeps matching); its tags
 * (its --server) are added to those set elsewhere.
 */
export interface LineSpec {
  name?: string;
  schedule?: string;
  timezone?: string;
  /** Minutes (the spec's `duration`). */
  grace?: number;
  /** Minutes a started run may take before it is stuck (the monitor's max_runtime). */
  maxRuntime?: number;
  /** The failure in a row that alerts (the monitor's alert_after). */
  alertAfter?: number;
  tags: string[];
}

/** What a monitor is now, in the terms of a line. */
export interface MonitorFacts {
  schedule: string;
  timezone: string;
  duration: number;
  max_runtime?: number | null;
  alert_after?: number;
  tags: string[];
}

export interface LineEdit {
  schedule?: string;
  timezone?: string;
  duration?: number;
  max_runtime?: number;
  alert_after?: number;
  tags?: string[];
}

/** The edit a line makes to its monitor: the fields it gives that differ, and the tags it adds. Nothing when they agree. */
export function lineEdit(
  monitor: MonitorFacts,
  line: LineSpec,
): LineEdit | undefined {
  const edit: LineEdit = {};
  if (line.schedule !== undefined && line.schedule !== monitor.schedule) edit.schedule = line.schedule;
  if (line.timezone !== undefined && line.timezone !== monitor.timezone) edit.timezone = line.timezone;
  if (line.grace !== undefined && line.grace !== monitor.duration) edit.duration = line.grace;
  // A line without --max-runtime leaves one set elsewhere (as its tags do): saying none is not saying "no limit".
  if (line.maxRuntime !== undefined && line.maxRuntime !== monitor.max_runtime) edit.max_runtime = line.maxRuntime;
  if (line.alertAfter !== undefined && line.alertAfter !== monitor.alert_after) edit.alert_after = line.alertAfter;
  const tags = sortedTags([...monitor.tags, ...line.tags]);
  if (tags.join(' ') !== sortedTags(monitor.tags).join(' ')) edit.tags = tags;
  return Object.keys(edit).length > 0 ? edit : undefined;
}

/** One field's change in a monitor's history: what it was, what it became. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;
