import { textOf, type Refusal } from '../kind';

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
