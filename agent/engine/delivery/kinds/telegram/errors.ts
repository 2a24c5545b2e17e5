import { jsonOf, textOf, type Refusal } from '../kind';

/**
 * The Bot API's answers that hold until the settings change: a token it does not know (401
 * "Unauthorized", 404 "Not Found"), a bot blocked, kicked or not a member (403 "Forbidden: …"),
 * a chat it cannot find (400 "Bad Request: chat not found"). Other 400s are about the message.
 */
export function permanent({ status, body }: Refusal): string | null {
  const description = textOf(body, 'description');
  const held = status === 401 || status === 403 || status === 404 || (status === 400 && /chat not found/i.test(description ?? ''));
  return held ? `Telegram says ${description ?? `HTTP ${status}`}` : null;
}

/** A flood limit (429 "Too Many Requests: retry after 35"): the Bot API says how long in `parameters.retry_after`, not in a header. */
export function retryAfter({ status, body }: Refusal): string | null {
  const parameters = jsonOf(body)?.parameters as { retry_after?: unknown } | undefined;
  const seconds = parameters?.retry_after;
  return status === 429 && typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? String(seconds) : null;
}

/**
 * A group that became a supergroup (400 "Bad Request: group chat was upgraded to a supergroup
 * chat"): the Bot API names the chat's new id in `parameters.migrate_to_chat_id`; null otherwise.
 */
export function movedTo({ status, body }: Refusal): string | null {
  const parameters = jsonOf(body)?.parameters as { migrate_to_chat_id?: unknown } | undefined;
  const id = parameters?.migrate_to_chat_id;
  return status === 400 && typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : null;
}
