import { notOneWordIn } from '../domain/text/controlCharacters';
import { UsageError } from './command';

/**
 * Why `key`, given by `source` (--token or CRONBEAT_API_TOKEN), cannot be an API key, or undefined.
 * A key is one word: a carriage return (a key file written on Windows, read with `$(cat key.txt)`),
 * a line break or a space is named here, rather than refused by Node as an invalid header, which
 * read as an agent out of reach, or sent and answered 401.
 */
export function apiKeyProblem(key: string, source: string): string | undefined {
  const found = notOneWordIn(key);
  return found && `${source} holds ${found}, which no API key has: set it to the key alone, as \`cronbeat token create\` printed it`;
}

/** The API key of `--token`, else of CRONBEAT_API_TOKEN; undefined when neither is set; a usage error when it cannot be one. */
export function apiKeyOf(flag: string | undefined): string | undefined {
  const [key, source] = flag !== undefined ? [flag, '--token'] : [process.env.CRONBEAT_API_TOKEN, 'CRONBEAT_API_TOKEN'];
  if (!key) return undefined;
  const problem = apiKeyProblem(key, source);
  if (problem) throw new UsageError(`${problem}.`);
  return key;
}
