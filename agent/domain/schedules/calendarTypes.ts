/* A systemd calendar event once read (calendarSpec.ts), as systemd keeps it (CalendarSpec in calendarspec.h). */

export interface Component {
  start: number;
  /** Last value of a range, -1 for none. */
  stop: number;
  /** Step; 0 for a single value. */
  repeat: number;
}

/** A field's values; null is `*` (every value). Seconds are in microseconds, as in systemd. */
export type Chain = Component[] | null;

export interface CalendarSpec {
  /** Bit 0 Monday … bit 6 Sunday; -1 any day. */
  weekdays: number;
  year: Chain;
  month: Chain;
  day: Chain;
  hour: Chain;
  minute: Chain;
  microsecond: Chain;
  /** `~` in the date: days count back from the month's end. */
  endOfMonth: boolean;
  utc: boolean;
  /** A trailing IANA zone; null: the monitor's zone. */
  timezone: string | null;
}
