import type { z } from 'zod';
import { HttpError } from './errors';

/** Parses `input` with `schema`, or throws a 422 listing each field's messages. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  // A Map, not {}: a client's field may be called "constructor" or "__proto__".
  const errors = new Map<string, string[]>();
  // One message once per field: a value past 2^53 fails .int() and .max() with the same words.
  const add = (field: string, message: string) => {
    const told = errors.get(field) ?? [];
    if (!told.includes(message)) errors.set(field, [...told, message]);
  };
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // One error per unknown field, named as the client spelt it.
      for (const key of issue.keys) add([...issue.path, key].join('.'), `The ${key} field is unknown. ${issue.message}`);
      continue;
    }
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    add(field, issue.message);
  }
  throw HttpError.validation(Object.fromEntries(errors));
}
