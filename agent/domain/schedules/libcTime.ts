import { utcOffset } from '../time/zoneOffsets';

/*
 * The C library's localtime() and mktime() as glibc 2.36 does them, in seconds, for one zone.
 * systemd finds a calendar event's next run by walking a `struct tm` and asking mktime() to
 * normalise it at every step; what it skips on a daylight-saving night, and which copy of a
 * repeated time it picks, is whatever glibc's mktime answers. So the answers here follow
 * glibc's own probing (mktime.c, __mktime_internal), including the guess it keeps from one
 * call to the next: a repeated wall-clock time resolves to the copy with the offset of the
 * time converted just before, and a time in a spring-forward gap lands an offset's width away.
 */

export interface Tm {
  /** Years since 1900, as in C. */
  year: number;
  /** 0..11, or out of range before normalisation. */
  mon: number;
  mday: number;
  hour: number;
  min: number;
  sec: number;
  /** 1 daylight-saving time, 0 not, -1 "find out" (what systemd asks for). */
  isdst: number;
  wday: number;
}

/** Zones whose tz data marks winter time as the daylight-saving one (negative DST), as glibc reads them. */
const NEGATIVE_DST = new Set(['Europe/Dublin', 'Eire', 'Africa/Casablanca', 'Africa/El_Aaiun']);

function offsetLabelSeconds(label: string): number {
  const match = /^GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?/.exec(label);
  if (!match) return 0;
  const size = Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4] ?? 0);
  return match[1] === '-' ? -size : size;
}

// Offsets change on whole minutes (since 1970), so one look-up a minute is exact; a search over
// two centuries (a date that never comes) asks a few thousand of them, not millions.
const offsetsByMinute = new Map<string, number>();

/**
 * When each of the 27 leap seconds so far took effect (UTC, seconds since 1970): a right/ zone
 * file counts them, so its clock is that many seconds behind its zone's from then on.
 */
const LEAP_SECONDS = [
  '1972-07-01', '1973-01-01', '1974-01-01', '1975-01-01', '1976-01-01', '1977-01-01', '1978-01-01', '1979-01-01', '1980-01-01',
  '1981-07-01', '1982-07-01', '1983-07-01', '1985-07-01', '1988-01-01', '1990-01-01', '1991-01-01', '1992-07-01', '1993-07-01',
  '1994-07-01', '1996-01-01', '1997-07-01', '1999-01-01', '2006-01-01', '2009-01-01', '2012-07-01', '2015-07-01', '2017-01-01',
].map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);

/**
 * zic writes a right/ file only up to the expiry of the leap-second list it was built with (28 June
 * 2026 for Debian 12's tzdata 2025b) and gives it no rule for later: glibc keeps the offset then in
 * force for ever (right/Europe/Paris stays on summer time), and so does systemd.
 */
const RIGHT_FILES_END = Date.parse('2026-06-28T00:00:00Z') / 1000;

function offsetSeconds(zone: string, t: number): number {
  if (zone.startsWith('right/')) return offsetSeconds(zone.slice('right/'.length), Math.min(t, RIGHT_FILES_END - 1)) - LEAP_SECONDS.filter((at) => at <= t).length;
  const key = `${zone}\n${Math.floor(t / 60)}`;
  let offset = offsetsByMinute.get(key);
  if (offset === undefined) {
    offset = offsetLabelSeconds(utcOffset(Math.floor(t / 60) * 60_000, zone));
    if (offsetsByMinute.size >= 200_000) offsetsByMinute.clear();
    offsetsByMinute.set(key, offset);
  }
  return offset;
}

const dstOffsets = new Map<string, { standard: number; daylight: number }>();

/** The zone's standard and daylight offsets in a year (the same when it keeps one all year), from the 1st of each month. */
function yearOffsets(zone: string, year: number): { standard: number; daylight: number } {
  const key = `${zone}\n${year}`;
  let found = dstOffsets.get(key);
  if (!found) {
    const samples = Array.from({ length: 12 }, (_, month) => offsetSeconds(zone, Date.UTC(year, month, 1, 12) / 1000));
    const [low, high] = [Math.min(...samples), Math.max(...samples)];
    found = NEGATIVE_DST.has(zone.replace(/^right\//, '')) ? { standard: high, daylight: low } : { standard: low, daylight: high };
    if (dstOffsets.size >= 20_000) dstOffsets.clear();
    dstOffsets.set(key, found);
  }
  return found;
}

/** Local time minus UTC at `t` (seconds), and whether it is daylight-saving time there. */
export function zoneOffsetAt(zone: string, t: number): { offset: number; isdst: number } {
  const offset = offsetSeconds(zone, t);
  const year = yearOffsets(zone, new Date(t * 1000).getUTCFullYear());
  return { offset, isdst: year.standard !== year.daylight && offset === year.daylight ? 1 : 0 };
}

/** Wall-clock fields as if in UTC ("naive" seconds): Date.UTC's arithmetic is C's for out-of-range fields. */
export function naiveSeconds(tm: Pick<Tm, 'year' | 'mon' | 'mday' | 'hour' | 'min' | 'sec'>): number {
  const clampedSec = Math.min(59, Math.max(0, tm.sec));
  return Date.UTC(tm.year + 1900, tm.mon, tm.mday, tm.hour, tm.min, clampedSec) / 1000;
}

function fieldsOf(naive: number, isdst: number): Tm {
  const d = new Date(naive * 1000);
  return {
    year: d.getUTCFullYear() - 1900,
    mon: d.getUTCMonth(),
    mday: d.getUTCDate(),
    hour: d.getUTCHours(),
    min: d.getUTCMinutes(),
    sec: d.getUTCSeconds(),
    isdst,
    wday: d.getUTCDay(),
  };
}

/** gmtime(): the fields of `t` in UTC. */
export function gmtime(t: number): Tm {
  return fieldsOf(t, 0);
}

/** timegm(): `tm` normalised as UTC, in place; the instant. */
export function timegm(tm: Tm): number {
  const t = naiveSeconds(tm) + secondsPastClamp(tm.sec);
  Object.assign(tm, fieldsOf(t, 0));
  return t;
}

/**
 * glibc searches with the seconds held to 0..59 (a leap second may be 60) and adds what it held
 * back to the answer: :63 is the next minute's :03, as systemd's repetitions of seconds meet it.
 */
function secondsPastClamp(sec: number): number {
  return sec - Math.min(59, Math.max(0, sec));
}

/** One process's localtime() and mktime() in `zone`, with mktime's remembered guess. */
export class LibcClock {
  /** glibc's static localtime_offset: UTC minus local time of the last mktime() answer. */
  private guess = 0;

  constructor(readonly zone: string) {}

  localtime(t: number): Tm {
    const { offset, isdst } = zoneOffsetAt(this.zone, t);
    return fieldsOf(t + offset, isdst);
  }

  private naiveOf(t: number): number {
    return t + zoneOffsetAt(this.zone, t).offset;
  }

  /** mktime(): `tm` normalised in place; the instant, or null where glibc gives up (EOVERFLOW). */
  mktime(tm: Tm): number | null {
    const isdst = tm.isdst;
    const naive = naiveSeconds(tm);
    const t0 = naive + this.guess;
    let t = t0;
    let t1 = t0;
    let t2 = t0;
    let dst2 = false;
    let remainingProbes = 6;
    let local: Tm;
    let found = false;
    for (;;) {
      local = this.localtime(t);
      const dt = naive - this.naiveOf(t);
      if (dt === 0) break;
      // Oscillating between two instants: the time is in a spring-forward gap.
      if (t === t1 && t !== t2 && (isdst < 0 ? Number(dst2) <= Number(local.isdst !== 0) : (isdst !== 0) !== (local.isdst !== 0))) {
        found = true;
        break;
      }
      remainingProbes--;
      if (remainingProbes === 0) return null;
      t1 = t2;
      t2 = t;
      t += dt;
      dst2 = local.isdst !== 0;
    }
    if (!found && isdstDiffer(isdst, local.isdst)) {
      const moved = this.withRequestedDst(t, naive, isdst, local.isdst);
      t = moved;
      local = this.localtime(t);
    }
    this.guess = t - t0 + this.guess;
    if (secondsPastClamp(tm.sec) !== 0) {
      t += secondsPastClamp(tm.sec);
      local = this.localtime(t);
    }
    Object.assign(tm, local);
    return t;
  }

  /** glibc's search for a nearby instant with the requested isdst, whose offset is then used. */
  private withRequestedDst(t: number, naive: number, isdst: number, gotDst: number): number {
    const stride = 601_200;
    const bound = Math.floor(457_243_200 / 2) + stride;
    for (let delta = stride; delta < bound; delta += stride) {
      for (const direction of [-1, 1]) {
        const ot = t + delta * direction;
        const other = zoneOffsetAt(this.zone, ot);
        if (!isdstDiffer(isdst, other.isdst)) return ot + (naive - (ot + other.offset));
      }
    }
    const dstDifference = (isdst === 0 ? 1 : 0) - (gotDst === 0 ? 1 : 0);
    return t + 3600 * dstDifference;
  }
}

function isdstDiffer(a: number, b: number): boolean {
  return !a !== !b && a >= 0 && b >= 0;
}
