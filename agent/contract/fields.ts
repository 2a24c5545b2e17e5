import { z } from 'zod';
import { controlCharacterIn } from '../domain/text/controlCharacters';

/*
 * The building blocks of every request schema in agent/contract/. Messages follow Laravel's
 * wording, naming the field, because the spec's clients are used to them.
 */

export const label = (field: string) => field.replace(/[_.]/g, ' ');
export const isMissing = (input: unknown) => input === undefined || input === null;

/*
 * Trimmed as Laravel's TrimStrings trims (Str::trim): white space, and also the zero width space,
 * the byte order mark and the left-to-right mark, which JavaScript's trim() keeps. A name of only
 * a zero width space would be stored, shown as nothing, and never be "required".
 */
const EDGES = /^[\s\uFEFF\u200B\u200E]+|[\s\uFEFF\u200B\u200E]+$/g;
export const trimText = (text: string) => text.replace(EDGES, '');

/** A required string, trimmed, 1..max characters. */
export function requiredString(field: string, max: number) {
  return z
    .string({
      error: (issue) =>
        isMissing(issue.input) ? `The ${label(field)} field is required.` : `The ${label(field)} field must be a string.`,
    })
    .overwrite(trimText)
    .min(1, { message: `The ${label(field)} field is required.`, abort: true })
    .max(max, { message: `The ${label(field)} field must not be greater than ${max} characters.`, abort: true });
}

/** The 422 message for a name or tag with a control character in it, or undefined when it has none. */
export function controlCharacterProblem(field: string, text: string): string | undefined {
  const found = controlCharacterIn(text);
  return found && `The ${label(field)} field must not contain control characters (it has ${found}).`;
}

/**
 * A name a person gives (a monitor's, a channel's, a key's…): a required string, trimmed, 1..max
 * characters, without control characters (agent/domain/text/controlCharacters.ts): a name is printed
 * on terminals, in popups, badges and chat messages, where ESC or a bidi override would act on
 * the reader instead of being read.
 */
export function nameString(field: string, max: number) {
  return requiredString(field, max).superRefine((text, context) => {
    const problem = controlCharacterProblem(field, text);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A text that is not a name, which may hold control characters (a crontab line's tab) but must be
 * text: a lone surrogate (`"\ud800"` in the JSON) has no UTF-8, so SQLite would store U+FFFD in its
 * place and answer something other than what was sent.
 */
export function wellFormed(field: string): [(value: string | null | undefined) => boolean, string] {
  return [(value) => value == null || !LONE_SURROGATE.test(value), `The ${label(field)} field must be text: it has a lone surrogate, which UTF-8 cannot hold.`];
}

/** A required integer between min and max. */
export function requiredInteger(field: string, min: number, max: number) {
  return z
    .number({
      error: (issue) =>
        isMissing(issue.input) ? `The ${label(field)} field is required.` : `The ${label(field)} field must be an integer.`,
    })
    .int(`The ${label(field)} field must be an integer.`)
    .min(min, `The ${label(field)} field must be between ${min} and ${max}.`)
    .max(max, `The ${label(field)} field must be between ${min} and ${max}.`);
}

/**
 * `object`, refusing any field it does not name (validate() answers one error per such field
 * with this message): a misspelt field in a PATCH is a mistake, never silently dropped.
 */
export function onlyFields<Shape extends z.ZodRawShape>(object: z.ZodObject<Shape>, taken: string[] = Object.keys(object.shape)) {
  const fields = taken.join(', ');
  return z.strictObject(object.shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `This request takes only: ${fields}.` : undefined),
  });
}

/**
 * The body of an action that takes none (mark all read, resume, a new token, a test send, a
 * check): nothing, or `{}`. A field is a mistake named in a 422, never ignored while the whole
 * action is done (`{"ids": […]}` would mark every notification read).
 */
export const noFields = z.strictObject({}, { error: (issue) => (issue.code === 'unrecognized_keys' ? 'This request takes no fields.' : undefined) });

/**
 * A PATCH body: any of the create body's fields, each checked as on create, and at least one
 * of them (a body naming none, such as a misspelt field, is a mistake, never a silent success).
 */
export function patchOf<Shape extends z.ZodRawShape>(create: z.ZodObject<Shape>) {
  return atLeastOneOf(onlyFields(create.partial()), Object.keys(create.shape));
}

/** `body` refusing a body that gives none of `fields` (all of them optional): a PATCH that would change nothing. */
export function atLeastOneOf<T extends z.ZodType<Record<string, unknown>>>(body: T, fields: string[]) {
  return body.superRefine((value, context) => {
    if (fields.every((field) => value[field] === undefined)) {
      context.addIssue({ code: 'custom', path: ['body'], message: `The body must contain at least one of: ${fields.join(', ')}.` });
    }
  });
}

/** A query parameter's message for a value it cannot be; `?page=1&page=2` comes as a list, and is told so. */
export function queryError(field: string, message: string) {
  return (issue: { input?: unknown }) => (Array.isArray(issue.input) ? `The ${label(field)} field must be given once.` : message);
}

/** A query parameter that must be one of `values` when present. */
export function oneOf<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  return z.enum(values, { error: queryError(field, `The ${label(field)} field must be one of: ${values.join(', ')}.`) }).optional();
}

/**
 * An optional positive integer id in the query, as the string the URL carries. Past 2^53 a
 * double cannot hold it (9007199254740993 reads as …992), so it is refused, never read as another id.
 */
export function queryId(field: string) {
  const message = `The ${label(field)} field must be a positive integer.`;
  return z
    .string({ error: queryError(field, `The ${label(field)} field must be an integer.`) })
    .regex(/^[1-9]\d{0,15}$/, { message, abort: true })
    .transform(Number)
    .refine(Number.isSafeInteger, message)
    .optional();
}

/**
 * A query parameter's text must have been UTF-8: the query is decoded before it is read, and bytes
 * that are not (`%FF`) come out as U+FFFD, which two different values would then share.
 */
export function utf8Query(field: string): [(value: string) => boolean, string] {
  return [(value) => !value.includes('\uFFFD'), `The ${field} field is not UTF-8: percent-encode its bytes in UTF-8 (é is %C3%A9).`];
}

/** An optional positive integer query parameter, as the string the URL carries. */
export function pageNumber(field: string, max: number) {
  return z
    .string({ error: queryError(field, `The ${label(field)} field must be an integer.`) })
    // Any run of digits is an integer: -1 is below 1 and 20 digits above the maximum, and each is told so.
    .regex(/^-?\d+$/, `The ${label(field)} field must be an integer.`)
    .transform(Number)
    .refine((n) => n >= 1, `The ${label(field)} field must be at least 1.`)
    .refine((n) => n <= max, `The ${label(field)} field must not be greater than ${max}.`)
    .optional();
}

/** An optional integer between min and max; absent or null gives `fallback`. */
export function optionalInteger(field: string, min: number, max: number, fallback: number) {
  return z
    .number({ error: `The ${label(field)} field must be an integer.` })
    .int(`The ${label(field)} field must be an integer.`)
    .min(min, `The ${label(field)} field must be between ${min} and ${max}.`)
    .max(max, `The ${label(field)} field must be between ${min} and ${max}.`)
    .nullish()
    .transform((value) => value ?? fallback);
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function httpUrl(field: string) {
  return requiredString(field, 2048).refine(isHttpUrl, `The ${label(field)} field must be an http or https URL.`);
}

/** An optional string; absent, null and "" give undefined. */
export function optionalString(field: string, max: number) {
  return z
    .string({ error: `The ${label(field)} field must be a string.` })
    .overwrite(trimText)
    .max(max, `The ${label(field)} field must not be greater than ${max} characters.`)
    .nullish()
    .transform((value) => value || undefined);
}

/** An `Idempotency-Key` header (as Stripe and the IETF draft name it; quoted or not): a retry with it counts once. Null when absent. */
export const idempotencyKeyHeader = z
  .string()
  .transform((value) => value.replace(/^"(.*)"$/, '$1'))
  .pipe(
    z
      .string()
      .regex(/^[\x20-\x7e]{1,255}$/, 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.'),
  )
  .optional()
  .transform((value) => value ?? null);
