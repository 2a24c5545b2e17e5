import type { ServerResponse } from 'node:http';
import type { Answer, ReceivedRequest } from './receiver';

/*
 * Receivers that answer as the real chat services do past their documented limits, so a message
 * too long for them is a failed delivery here too, as it is there (Slack answers 400
 * invalid_blocks, Telegram 400 "message is too long", Discord 400 with the embed's errors). Written
 * from the services' documentation, independently of the agent's own counting.
 */

function answer(res: ServerResponse, status: number, body: string, type = 'application/json') {
  res.writeHead(status, { 'Content-Type': type }).end(body);
}

/** What Slack refuses of an incoming webhook's message; null when it accepts it. */
export function slackRefusal(body: unknown): string | null {
  const message = body as { text?: unknown; blocks?: Array<Record<string, unknown>> };
  if (typeof message.text === 'string' && message.text.length > 40_000) return 'msg_too_long';
  const blocks = message.blocks ?? [];
  if (blocks.length > 50) return 'invalid_blocks';
  for (const block of blocks) {
    const text = block.text as { text?: string } | undefined;
    if (block.type === 'section' && (text?.text ?? '').length > 3000) return 'invalid_blocks';
    if (block.type === 'context') {
      const elements = block.elements as Array<{ text?: string }>;
      if (elements.length > 10 || elements.some((e) => (e.text ?? '').length > 3000)) return 'invalid_blocks';
    }
  }
  if (!message.text && blocks.length === 0) return 'no_text';
  return null;
}

/** Slack's incoming webhook: 200 "ok", or 400 with the error word past its limits. */
export const slackLike: Answer = (request: ReceivedRequest, res) => {
  const refusal = slackRefusal(JSON.parse(request.body));
  if (refusal) answer(res, 400, refusal, 'text/plain');
  else answer(res, 200, 'ok', 'text/plain');
};

/** What Discord refuses of a webhook's message (its embed limits); null when it accepts it. */
export function discordRefusal(body: unknown): string | null {
  const message = body as { content?: string; embeds?: Array<Record<string, unknown>> };
  if ((message.content ?? '').length > 2000) return 'content: Must be 2000 or fewer in length.';
  const embeds = message.embeds ?? [];
  if (embeds.length > 10) return 'embeds: Must be 10 or fewer in length.';
  for (const embed of embeds) {
    const title = String(embed.title ?? '');
    const description = String(embed.description ?? '');
    const footer = String((embed.footer as { text?: string } | undefined)?.text ?? '');
    const fields = (embed.fields as Array<{ name: string; value: string }> | undefined) ?? [];
    if (title.length > 256) return 'embeds.0.title: Must be 256 or fewer in length.';
    if (description.length > 4096) return 'embeds.0.description: Must be 4096 or fewer in length.';
    if (footer.length > 2048) return 'embeds.0.footer.text: Must be 2048 or fewer in length.';
    if (fields.length > 25 || fields.some((f) => f.name.length > 256 || f.value.length > 1024)) return 'embeds.0.fields: invalid';
    const total = title.length + description.length + footer.length + fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
    if (total > 6000) return 'embeds: Embed size exceeds maximum size of 6000';
  }
  return null;
}

/** A Discord webhook: 204, or 400 "Invalid Form Body" past its limits. */
export const discordLike: Answer = (request, res) => {
  const refusal = discordRefusal(JSON.parse(request.body));
  if (refusal) answer(res, 400, JSON.stringify({ code: 50035, message: 'Invalid Form Body', errors: refusal }));
  else answer(res, 204, '');
};

const TELEGRAM_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'span', 'tg-spoiler', 'blockquote']);

/**
 * A Telegram HTML text as Telegram parses it: its tags (balanced, of the supported ones) and its
 * text with entities read; an error as Telegram words it when it cannot parse it.
 */
export function parseTelegramHtml(html: string): { text: string; tags: string[] } | { error: string } {
  const tags: string[] = [];
  const open: string[] = [];
  let text = '';
  const pattern = /<(\/?)([a-z-]+)([^>]*)>|&(lt|gt|amp|quot);|&[^;\s]*;?|[<>]|[^<&>]+/gi;
  for (const match of html.matchAll(pattern)) {
    const [whole, closing, name, , entity] = match;
    if (name !== undefined) {
      const tag = name.toLowerCase();
      if (!TELEGRAM_TAGS.has(tag)) return { error: `Bad Request: can't parse entities: Unsupported start tag "${tag}"` };
      if (closing) {
        if (open.pop() !== tag) return { error: `Bad Request: can't parse entities: Unmatched end tag "${tag}"` };
      } else open.push(tag);
      tags.push(whole);
    } else if (entity !== undefined) text += { lt: '<', gt: '>', amp: '&', quot: '"' }[entity.toLowerCase()];
    else if (whole.startsWith('&')) return { error: "Bad Request: can't parse entities: Unsupported entity" };
    else if (whole === '<' || whole === '>') return { error: "Bad Request: can't parse entities: Unexpected end of name token" };
    else text += whole;
  }
  if (open.length) return { error: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${open.pop()}"` };
  return { text, tags };
}

/** Telegram's sendMessage: 200 {ok: true}, or 400 as Telegram answers a text it cannot parse or too long (UTF-16 units after parsing). */
export const telegramLike: Answer = (request, res) => {
  const { text } = JSON.parse(request.body) as { text: string };
  const parsed = parseTelegramHtml(text);
  const error = 'error' in parsed ? parsed.error : parsed.text.length > 4096 ? 'Bad Request: message is too long' : parsed.text.trim() === '' ? 'Bad Request: message text is empty' : null;
  if (error) answer(res, 400, JSON.stringify({ ok: false, error_code: 400, description: error }));
  else answer(res, 200, JSON.stringify({ ok: true, result: { message_id: 1 } }));
};
