import { textOf, type Refusal } from '../kind';

/** ntfy refusing the token or the topic (401, 403) or not there (404): the same next time, until the settings change. */
export function permanent({ status, body }: Refusal): string | null {
  if (status !== 401 && status !== 403 && status !== 404) return null;
  return `ntfy says ${textOf(body, 'error') ?? `HTTP ${status}`} (HTTP ${status})`;
}
