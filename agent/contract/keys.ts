import { z } from 'zod';
import { KEY_SCOPES } from '../domain/access/keyScopes';
import { MAX_LINE_MONITORS_LIMIT } from '../domain/monitors/lineLimits';
import { controlCharacterProblem, onlyFields, trimText } from './fields';

/* API keys: the body of POST /api/keys and what GET /api/keys lists. */

const maxMonitorsMessage = `The max monitors field must be a whole number from 1 to ${MAX_LINE_MONITORS_LIMIT}, or null for the default.`;
/** How many monitors the key's lines may make; null: the default (DEFAULT_MAX_LINE_MONITORS). */
const maxMonitors = z
  .number({
    // Left out of a PATCH, whose one field it is: say so rather than what a value must be.
    error: (issue) => (issue.input === undefined ? `The max monitors field is required: a whole number from 1 to ${MAX_LINE_MONITORS_LIMIT}, or null for the default.` : maxMonitorsMessage),
  })
  .int(maxMonitorsMessage)
  .min(1, maxMonitorsMessage)
  .max(MAX_LINE_MONITORS_LIMIT, maxMonitorsMessage)
  .nullable();

export const keyInput = onlyFields(
  z.object({
    name: z
      .string({ error: (issue) => (issue.input == null ? 'The name field is required.' : 'The name field must be a string.') })
      .overwrite(trimText)
      .min(1, { message: 'The name field is required.', abort: true })
      .max(100, 'The name field must not be greater than 100 characters.')
      .superRefine((name, context) => {
        const problem = controlCharacterProblem('name', name);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      }),
    scope: z.enum(KEY_SCOPES, {
      error: (issue) =>
        issue.input == null ? 'The scope field is required.' : `The scope field must be one of: ${KEY_SCOPES.join(', ')}.`,
    }),
    max_monitors: maxMonitors.optional(),
  }),
);
export type KeyInput = z.infer<typeof keyInput>;

/** The body of PATCH /api/keys/{id}: a key's limit on the monitors its lines make (null: back to the default). */
export const keyPatch = onlyFields(z.object({ max_monitors: maxMonitors }));

/** A key as listed: never its secret, which is shown once, in the answer to its creation. */
export interface WireKey {
  id: number;
  name: string;
  scope: (typeof KEY_SCOPES)[number];
  created_at: string;
  last_used_at: string | null;
  /** How many monitors its lines may make (the key's own limit, else the default). */
  max_monitors: number;
}

/** The answer to POST /api/keys: the key, plus its secret this once. */
export interface WireNewKey extends WireKey {
  key: string;
}
