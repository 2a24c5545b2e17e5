import type { z } from 'zod';
import { label } from '../../../agent/contract/fields';

/**
 * The dashboard's form checks are the API's own schemas (agent/contract/), so a form refuses
 * exactly what the API refuses, in the API's words: `body` is what the form would send, and each
 * refusal lands on the field its path names ("settings.to", "quiet_hours.start"), first one kept.
 * `words` renames a field where the screen calls it otherwise (the API's `duration` is the grace).
 */
export function fieldErrors(
  schema: z.ZodType,
  body: unknown,
  options: { prefix?: string; words?: Record<string, string> } = {},
): Record<string, string> {
  const result = schema.safeParse(body);
  const errors: Record<string, string> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    const word = options.words?.[path];
    const message = word ? issue.message.replace(`The ${label(path)} field`, `The ${word}`) : issue.message;
    errors[`${options.prefix ?? ''}${path}`] ??= message;
  }
  return errors;
}

/** A number field as the API takes it: empty is absent (the API says "required" or takes its default). */
export const numberOrAbsent = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/**
 * The fields of `after` that differ from `before`: an edit form sends only what was changed in it,
 * so a change made elsewhere while the form was open (another tab, the CLI) is not put back.
 */
export function changedFields<T extends object>(before: Partial<T>, after: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(after[key]) !== JSON.stringify(before[key])) changed[key] = after[key];
  }
  return changed;
}
