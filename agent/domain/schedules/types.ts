/** The three kinds of schedule the one `schedule` field holds, told apart by their text (kindOf). */
export type ScheduleKind = 'cron' | 'calendar' | 'period';

/** A schedule as it is to be stored, or why it cannot be one, in words. */
export type ScheduleCheck = { schedule: string; error?: undefined } | { schedule?: undefined; error: string };
