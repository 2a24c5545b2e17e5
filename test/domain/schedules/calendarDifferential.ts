/*
 * Cronbeat's calendar events against systemd's own: generated OnCalendar expressions, zones
 * with daylight-saving switches of an hour, half an hour (Lord Howe) and 45 minutes' offsets
 * (Chatham), and start moments around their switches, each asked of the real
 * `systemd-analyze calendar --iterations=N` (its clock moved by libfaketime, its zone by TZ=)
 * and of Cronbeat: the same expressions accepted and refused, the same next runs.
 *
 *   node --import tsx test/domain/schedules/calendarDifferential.ts [--seed 1] [--count 3000] [--iterations 6] [--hard]
 *
 * prints the first disagreements and a closing count; exits 1 when any. A seeded subset runs in
 * `npm test` (calendarDifferential.test.ts). Needs systemd-analyze and libfaketime.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { checkSchedule, kindOf, nextRuns } from '../../../agent/domain/schedules';
import { offsetSwitchesBetween } from '../../../agent/domain/time/zoneOffsets';
import { hardExpression, hardZone } from './calendarHardExpressions';

const run = promisify(execFile);

const LIBFAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'].find((f) => existsSync(f));
export const canRunSystemd = LIBFAKETIME !== undefined && ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].some((f) => existsSync(f));

export const ZONES = [
  'America/New_York', 'Europe/Berlin', 'Europe/London', 'Europe/Dublin', 'Australia/Lord_Howe', 'Pacific/Chatham',
  'Australia/Adelaide', 'America/Santiago', 'America/Havana', 'America/St_Johns', 'Asia/Kolkata', 'UTC',
  'Pacific/Auckland', 'America/Sao_Paulo', 'Asia/Tehran', 'Africa/Cairo',
];

/** mulberry32: small, seeded, the same sequence on every machine. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pad = (n: number) => String(n).padStart(2, '0');

function component(r: Rand, lo: number, hi: number, near: number[], twoDigits = true): string {
  const value = () => {
    const v = r() < 0.5 && near.length > 0 ? pick(r, near) : int(r, lo, hi);
    return twoDigits && r() < 0.7 ? pad(v) : String(v);
  };
  const one = () => {
    const k = r();
    if (k < 0.55) return value();
    if (k < 0.75) {
      const a = int(r, lo, hi);
      return `${a}..${Math.min(hi + (r() < 0.05 ? 3 : 0), a + int(r, r() < 0.1 ? -2 : 0, 6))}`;
    }
    if (k < 0.95) return `${value()}/${int(r, r() < 0.03 ? 0 : 1, Math.max(1, Math.floor((hi - lo) / 2)))}`;
    return `${int(r, lo, hi)}..${int(r, lo, hi)}/${int(r, 1, 5)}`;
  };
  if (r() < 0.25) return '*';
  const n = r() < 0.75 ? 1 : int(r, 2, 3);
  return Array.from({ length: n }, one).join(',');
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const LONG_WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const SHORTHANDS = ['minutely', 'hourly', 'daily', 'weekly', 'monthly', 'quarterly', 'semiannually', 'yearly', 'annually', 'Daily', 'WEEKLY'];

/** One OnCalendar expression, mostly valid, sometimes not. */
export function expression(r: Rand, zone: string): string {
  if (r() < 0.06) return pick(r, SHORTHANDS) + (r() < 0.2 ? ` ${pick(r, ['UTC', zone, 'Europe/Paris'])}` : '');
  const parts: string[] = [];
  if (r() < 0.3) {
    const n = int(r, 1, 2);
    const days = Array.from({ length: n }, () => {
      const a = int(r, 0, 6);
      const name = (i: number) => (r() < 0.8 ? WEEKDAYS : LONG_WEEKDAYS)[i]!;
      return r() < 0.4 ? `${name(a)}..${name(Math.min(6, a + int(r, r() < 0.05 ? -2 : 1, 4)))}` : name(a);
    });
    parts.push(days.join(','));
  }
  const dateKind = r();
  if (dateKind < 0.25) {
    const year = r() < 0.7 ? '*' : r() < 0.2 ? String(int(r, 26, 31)) : component(r, 2026, 2032, [2026, 2027, 2028], false);
    parts.push(`${year}-${component(r, 1, 12, [3, 4, 9, 10, 11])}-${component(r, 1, 31, [1, 5, 8, 29, 30, 31])}`);
  } else if (dateKind < 0.4) {
    parts.push(`${component(r, 1, 12, [3, 4, 10, 11])}-${component(r, 1, 31, [1, 8, 29, 31])}`);
  } else if (dateKind < 0.5) {
    parts.push(`*-${component(r, 1, 12, [2, 3, 10])}~${component(r, 1, 7, [1, 2])}`);
  } else if (dateKind < 0.6) {
    parts.push('*-*-*');
  }
  if (parts.length === 0 || r() < 0.85) {
    const hour = component(r, 0, 23, [0, 1, 2, 3]);
    const minute = component(r, 0, 59, [0, 15, 30, 45]);
    const k = r();
    const second = k < 0.5 ? '' : k < 0.8 ? `:${pad(int(r, 0, 59))}` : k < 0.93 ? `:${component(r, 0, 59, [0, 30])}` : `:${int(r, 0, 59)}.5`;
    parts.push(`${r() < 0.05 ? int(r, 24, 26) : hour}:${minute}${second}`);
  }
  const z = r();
  if (z < 0.07) parts.push('UTC');
  else if (z < 0.14) parts.push(pick(r, ZONES.filter((name) => name !== 'UTC')));
  let text = parts.join(' ');
  if (r() < 0.03) {
    const at = int(r, 0, text.length);
    text = text.slice(0, at) + pick(r, ['x', '-', ':', ',', '.', '/']) + text.slice(at);
  }
  return text;
}

/** A start moment near one of the zone's switches (2026-2031), or any moment in those years. */
export function startMoment(r: Rand, zone: string): number {
  const switches = offsetSwitchesBetween(zone, Date.UTC(2026, 0, 1), Date.UTC(2031, 0, 1));
  const base = switches.length > 0 && r() < 0.85 ? pick(r, switches) : Date.UTC(2026, 0, 1) + Math.floor(r() * 5 * 365 * 86_400_000);
  const spread = r() < 0.6 ? 3 * 3_600_000 : 40 * 86_400_000;
  const moment = base + Math.floor((r() * 2 - 1) * spread);
  const unit = r() < 0.5 ? 60_000 : 1_000;
  return Math.floor(moment / unit) * unit;
}

interface SystemdAnswer {
  accepted: boolean;
  runs: number[];
}

const ELAPSE = /(?:Next elapse|Iter\. #\d+): (.*)$/;
const IN_UTC = /\(in UTC\): \w{3} (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC/;
// Without an "(in UTC)" line the zone is UTC's clock all year (UTC, GMT, Africa/Abidjan): the local time is UTC.
const LOCAL_UTC = /: \w{3} (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) [\w+-]+$/;

/** systemd-analyze's answers for `expressions` in `zone` with its clock at `startMs`. */
export async function askSystemd(expressions: string[], zone: string, startMs: number, iterations: number): Promise<SystemdAnswer[]> {
  const env = { ...process.env, TZ: zone, LD_PRELOAD: LIBFAKETIME!, FAKETIME_FMT: '%s', FAKETIME: `@${Math.floor(startMs / 1000)}`, SYSTEMD_COLORS: '0', LC_ALL: 'C' };
  const result = await run('systemd-analyze', ['calendar', `--iterations=${iterations}`, '--', ...expressions], { env, maxBuffer: 1 << 24 }).catch(
    (error: { stdout: string; stderr: string }) => error,
  );
  const refused = new Set<string>();
  const noElapse = new Set<string>();
  for (const line of result.stderr.split('\n')) {
    const match = /^Failed to parse calendar specification '(.*)': /.exec(line);
    if (match) refused.add(match[1]!);
    // systemd's search gave up (its 1000 steps): no next elapse, as "never".
    const gaveUp = /^Failed to determine next elapse for '(.*)': /.exec(line);
    if (gaveUp) noElapse.add(gaveUp[1]!);
  }
  const blocks = result.stdout.split(/\n\s*\n/).filter((block) => /Normalized form/.test(block));
  const answers: SystemdAnswer[] = [];
  if (blocks.length !== expressions.length - refused.size - noElapse.size) {
    throw new Error(`systemd-analyze answered ${blocks.length} of ${expressions.length - refused.size} expressions: ${result.stderr}`);
  }
  let b = 0;
  for (const expr of expressions) {
    if (refused.has(expr)) {
      answers.push({ accepted: false, runs: [] });
      continue;
    }
    if (noElapse.has(expr)) {
      // systemd gave up at some iteration and then prints none: the runs before it are those of
      // the longest run of iterations it completes.
      let runs: number[] = [];
      for (let fewer = iterations - 1; fewer >= 1 && runs.length === 0; fewer--) runs = (await askSystemd([expr], zone, startMs, fewer))[0]!.runs;
      answers.push({ accepted: true, runs });
      continue;
    }
    const lines = (blocks[b++] ?? '').split('\n');
    const runs: number[] = [];
    for (const [i, line] of lines.entries()) {
      if (!ELAPSE.test(line) || /never/.test(line)) continue;
      const utc = IN_UTC.exec(lines[i + 1] ?? '') ?? LOCAL_UTC.exec(line);
      if (utc) runs.push(Date.parse(`${utc[1]}T${utc[2]}Z`));
    }
    answers.push({ accepted: true, runs });
  }
  return answers;
}

export interface Disagreement {
  expression: string;
  zone: string;
  start: string;
  systemd: string;
  cronbeat: string;
}

/** Cronbeat's answer in systemd-analyze's terms: refused, or the runs to the second. */
function cronbeatAnswer(expr: string, zone: string, startMs: number, iterations: number): SystemdAnswer {
  const checked = checkSchedule(expr);
  if (checked.error !== undefined || kindOf(checked.schedule) !== 'calendar') return { accepted: false, runs: [] };
  return { accepted: true, runs: nextRuns(checked.schedule, zone, startMs, iterations).map((ms) => Math.floor(ms / 1000) * 1000) };
}

/** The disagreements over a fixed list of expressions, asked in one zone from one moment. */
export async function compareFixed(expressions: string[], zone: string, startMs: number, iterations: number): Promise<Disagreement[]> {
  const theirs = await askSystemd(expressions, zone, startMs, iterations);
  return expressions.flatMap((expr, i) => {
    const ours = cronbeatAnswer(expr, zone, startMs, iterations);
    return show(ours) === show(theirs[i]!) ? [] : [{ expression: expr, zone, start: new Date(startMs).toISOString(), systemd: show(theirs[i]!), cronbeat: show(ours) }];
  });
}

const show = (a: SystemdAnswer) => (a.accepted ? a.runs.map((ms) => new Date(ms).toISOString().replace('.000Z', 'Z')).join(' ') || 'never' : 'refused');

/**
 * Runs `count` expressions in batches; the disagreements, and how many cases and runs were compared.
 * `hard` takes its expressions and zones from calendarHardExpressions.ts instead.
 */
export async function differential(seed: number, count: number, iterations: number, batch = 40, hard = false): Promise<{ cases: number; runs: number; refused: number; askedAlone: number; disagreements: Disagreement[] }> {
  const r = random(seed);
  const disagreements: Disagreement[] = [];
  let cases = 0;
  let runs = 0;
  let refused = 0;
  let asked = 0;
  while (cases < count) {
    const zone = hard ? hardZone(r) : pick(r, ZONES);
    const start = startMoment(r, zone);
    const size = Math.min(batch, count - cases);
    // systemd-analyze prints nothing that ties an answer to a refused expression but its text: no duplicates.
    const expressions = [...new Set(Array.from({ length: size }, () => (hard ? hardExpression(r) : expression(r, zone))).filter((e) => !e.includes("'")))];
    const theirs = await askSystemd(expressions, zone, start, iterations);
    for (const [i, expr] of expressions.entries()) {
      const ours = cronbeatAnswer(expr, zone, start, iterations);
      let their = theirs[i]!;
      // One process answers a whole batch; where an answer differs, systemd is asked again for
      // that expression alone (a fresh process, as a timer's first computation is), which is the
      // answer that counts.
      if (show(ours) !== show(their)) {
        their = (await askSystemd([expr], zone, start, iterations))[0]!;
        asked++;
      }
      cases++;
      runs += their.runs.length;
      if (!their.accepted) refused++;
      if (show(ours) !== show(their)) {
        disagreements.push({ expression: expr, zone, start: new Date(start).toISOString(), systemd: show(their), cronbeat: show(ours) });
      }
    }
  }
  return { cases, runs, refused, askedAlone: asked, disagreements };
}

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

if (process.argv[1] && /calendarDifferential\.ts$/.test(process.argv[1])) {
  if (!canRunSystemd) {
    console.error('systemd-analyze and libfaketime are needed (apt-get install systemd faketime).');
    process.exit(2);
  }
  const seed = argument('seed', 1);
  const count = argument('count', 3000);
  const iterations = argument('iterations', 6);
  const began = Date.now();
  void differential(seed, count, iterations, 40, process.argv.includes('--hard')).then((result) => {
  for (const d of result.disagreements.slice(0, 25)) {
    console.log(`${JSON.stringify(d.expression)} in ${d.zone} from ${d.start}\n  systemd:  ${d.systemd}\n  cronbeat: ${d.cronbeat}`);
  }
  console.log(
    `seed ${seed}: ${result.cases} expressions (${result.refused} refused by systemd), ${result.runs} runs compared, ` +
      `${result.askedAlone} asked again alone, ${result.disagreements.length} disagreements, ${((Date.now() - began) / 1000).toFixed(1)} s`,
  );
  process.exit(result.disagreements.length === 0 ? 0 : 1);
  });
}
