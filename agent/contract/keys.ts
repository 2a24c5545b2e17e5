import { z } from 'zod';
import { KEY_SCOPES } from '../domain/keyScopes';
import { controlCharacterProblem } from './fields';

/* API keys (issue 23): the body of POST /api/keys and what GET /api/keys lists. */

export const keyInput = z
  .object({
    name: z
      .string({ error: (issue) => (issue.input == null ? 'The name field is required.' : 'The name field must be a string.') })
      .trim()
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
  })
  .strict();
export type KeyInput = z.infer<typeof keyInput>;

/** A key as listed: never its secret, which is shown once, in the answer to its creation. */
export interface WireKey {
  id: number;
  name: string;
  scope: (typeof KEY_SCOPES)[number];
  created_at: string;
  last_used_at: string | null;
}

/** The answer to POST /api/keys: the key, plus its secret this once. */
export interface WireNewKey extends WireKey {
  key: string;
}
