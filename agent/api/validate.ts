import type { z } from 'zod';
import { HttpError } from './errors';

/** Parses `input` with `schema`, or throws a 422 listing each field's messages. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // One error per unknown field, named as the client spelt it.
      for (const key of issue.keys) (errors[[...issue.path, key].join('.')] ??= []).push(`The ${key} field is unknown. ${issue.message}`);
      continue;
    }
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    (errors[field] ??= []).push(issue.message);
  }
  throw HttpError.validation(errors);
}
