import { z } from 'zod';
import { MAX_REMIND_EVERY_HOURS } from '../domain/alerts/reminders';

/* A channel's reminders: `remind_every_hours`, null (off, the default) or whole hours. */

export const remindEveryHoursInput = z
  .number({ error: `The remind every hours field must be a whole number of hours from 1 to ${MAX_REMIND_EVERY_HOURS}, or null.` })
  .int(`The remind every hours field must be a whole number of hours from 1 to ${MAX_REMIND_EVERY_HOURS}, or null.`)
  .min(1, `The remind every hours field must be at least 1.`)
  .max(MAX_REMIND_EVERY_HOURS, `The remind every hours field must not be greater than ${MAX_REMIND_EVERY_HOURS}.`)
  .nullable();
