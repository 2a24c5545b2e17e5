// Words for every kind of schedule live in schedules/ (one door for cron, calendar events and periods).
export { capitalised, scheduleWords } from './schedules';
