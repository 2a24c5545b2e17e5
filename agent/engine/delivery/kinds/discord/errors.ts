import { textOf, type Refusal } from '../kind';

/** A webhook Discord no longer knows (404 "Unknown Webhook", code 10015) or whose token is wrong (401 "Invalid Webhook Token", code 50027). */
export function permanent({ status, body }: Refusal): string | null {
  if (status !== 401 && status !== 404) return null;
  return `Discord says ${textOf(body, 'message') ?? (status === 404 ? 'not found' : 'unauthorized')} (HTTP ${status})`;
}
