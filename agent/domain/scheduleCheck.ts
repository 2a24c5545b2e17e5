// The check of every kind of schedule lives in schedules/ (one door for cron, calendar events and periods).
export { checkSchedule, CRON_MACROS, type ScheduleCheck } from './schedules';
