import { cutText } from '../../../../domain/text/chatText';
import type { Refusal } from '../kind';

const GONE: Record<number, string> = { 404: 'not found', 410: 'gone' };

/** A URL that is not there (404) or gone for good (410) stays so until the channel points elsewhere. */
export function permanent({ status, body }: Refusal): string | null {
  if (status === null || !GONE[status]) return null;
  return `The receiver answered HTTP ${status} (${GONE[status]})${body ? `: ${cutText(body, 200)}` : ''}`;
}
