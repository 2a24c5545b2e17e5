import type { Store } from '../../db/store';
import type { DeliveryRow } from '../../db/deliveries';
import type { NotificationRow } from '../../db/notifications';
import { BURST_THRESHOLD, BURST_WINDOW_MS, burstDecision, DIGEST_MAX_ALERTS } from '../../domain/alerts/digest';
import type { Alert } from '../../domain/alerts/alert';
import { digestWebhookAlert, type DigestEntry } from '../../domain/alerts/digestMessage';
import { tooLargeFailure } from '../../domain/channels/delivery';
import { inSlices } from '../slices';
import type { DigestContent } from './messages';
import type { AttemptResult } from './attempt';

/** The longest a burst's alert waits for its digest: the worker's hold for a burst is never longer. */
export { DIGEST_INTERVAL_MS } from '../../domain/alerts/digest';

/*
 * Bursts in the outbox (agent/domain/alerts/digest.ts): a delivery about to be sent is sent alone, held
 * with the channel's other waiting alerts until their digest, or made the lead of a digest that
 * folds them in. A digest is its lead delivery: claimed, sent, retried and (after a crash) sent
 * again like any other, so it is delivered at least once; the alerts folded into it are settled
 * with it.
 */

/** `waitUntil`: the channel's burst is still being failed; nothing was written, look again then. */
export type BurstPlan = 'single' | 'digest' | 'held' | { waitUntil: number };

/**
 * What to do with `delivery`, the oldest due one of its channel, at `now`; folds or holds as decided.
 */
export function planBurst({ deliveries, monitors }: Pick<Store, 'deliveries' | 'monitors'>, delivery: DeliveryRow, now: number): BurstPlan {
  if (delivery.folded_into === delivery.id) return 'digest';
  // A retry was decided on already; only fresh alerts are folded.
  if (delivery.attempts > 0 || delivery.folded_into !== null) return 'single';
  // Counting the waiting alerts past the threshold would change no decision, and a burst has 10,000 of them.
  const burst = deliveries.burstOf(delivery.channel_id, now, BURST_WINDOW_MS, BURST_THRESHOLD + 1);
  // Overdue monitors the loop has not failed yet: a burst under way.
  const decision = burstDecision(burst, now, (monitors.earliestDueAt() ?? Infinity) < now);
  if (decision.action === 'send') return 'single';
  if (decision.action === 'wait') return { waitUntil: decision.until };
  if (decision.action === 'hold') {
    deliveries.holdWaiting(delivery.channel_id, decision.until);
    return 'held';
  }
  // A "digest" of one is that alert.
  if (burst.waiting <= 1) return 'single';
  // Its alerts are folded in while it is built (digestContent), a page at a time.
  deliveries.markLead(delivery.id);
  return 'digest';
}

/** How many alerts one step folds into a digest, or settles with it: about a slice, a millisecond. */
const FOLD_PAGE = 100;

/** How many of a digest's alerts one step reads (and renders, for a webhook): about a slice, a millisecond (10 a step cost a sixth more CPU). */
const DIGEST_PAGE = 30;

/**
 * The alerts of the digest led by `leadId`, in the order they came (notifications gone are left
 * out), each as `asSent` makes it for the channel (its secrets masked), and each as webhook JSON
 * when `webhookUrl` (the public URL its links use) is given: read and rendered a page per slice
 * (agent/engine/slices.ts), so a digest of 10,000 alerts leaves pulses answered meanwhile.
 * `foldFrom` (its first attempt only): the channel whose fresh alerts are folded into it first,
 * a page per step too (one statement folding 10,000 held the event loop for 90 ms). An agent
 * stopped meanwhile sends the digest of what was folded; the rest make the next one.
 */
export async function digestContent(
  store: Pick<Store, 'notifications' | 'deliveries'>,
  companyId: number,
  leadId: number,
  webhookUrl: string | null,
  asSent: (alert: Alert) => Alert,
  foldFrom: number | null = null,
): Promise<DigestContent> {
  const entries: DigestEntry[] = [];
  const webhookAlertsJson: string[] = [];
  let after: number | null = 0;
  let toFold = foldFrom === null ? 0 : DIGEST_MAX_ALERTS - 1;
  await inSlices(() => {
    if (toFold > 0) {
      const page = Math.min(FOLD_PAGE, toFold);
      const folded = store.deliveries.fold(foldFrom!, leadId, page);
      toFold = folded < page ? 0 : toFold - folded;
      return true;
    }
    const page = store.notifications.digestPage(companyId, leadId, after!, DIGEST_PAGE);
    for (const row of page.rows) {
      const entry = digestEntry(row, asSent);
      entries.push(entry);
      if (webhookUrl !== null) webhookAlertsJson.push(JSON.stringify(digestWebhookAlert(entry, webhookUrl)));
    }
    after = page.lastDeliveryId;
    return after !== null;
  });
  return webhookUrl === null ? { entries } : { entries, webhookAlertsJson };
}

function digestEntry(row: NotificationRow, asSent: (alert: Alert) => Alert): DigestEntry {
  const notification = { id: row.id, type: row.type, data: { type: row.data.type, type_id: row.data.type_id } };
  return { alert: asSent(row.alert), notification };
}

/**
 * Settles the alerts folded into the digest led by `leadId` as it was (sent, or failed for good),
 * a page per step, while `writable()`; those left when the agent stops are settled at its next start
 * (releaseInterrupted).
 */
export function settleInSlices(
  store: Pick<Store, 'deliveries'>,
  leadId: number,
  outcome: Parameters<Store['deliveries']['settleDigest']>[1],
  writable: () => boolean,
): Promise<void> {
  let after: number | null = 0;
  return inSlices(() => writable() && (after = store.deliveries.settleDigest(leadId, outcome, FOLD_PAGE, after!)) !== null);
}

/**
 * Runs digest builds one at a time: a build holds all its alerts, and three channels' digests of
 * 10,000 alerts built side by side took three times the memory.
 */
export function oneDigestAtATime() {
  let previous: Promise<unknown> = Promise.resolve();
  return <T>(build: () => Promise<T>): Promise<T> => {
    const next = previous.then(build);
    // Not the request itself: it holds the digest's body until the next build.
    previous = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  };
}

/**
 * What a test message's receiver said, a refusal for its size (413) in the words a real
 * alert's has (tooLargeFailure) rather than the receiver's page alone; any other answer as it is.
 */
export function testAnswer(result: AttemptResult): AttemptResult {
  return result.ok || result.responseStatus !== 413 ? result : { ...result, error: tooLargeFailure(result.error) };
}

/**
 * A message its receiver refused for its size (413: nginx's default 1 MB, Express's 100 KB).
 * A digest (a webhook's carries every alert as data) keeps the older half of its alerts and is
 * sent again at once (`sendAgain`); the newer half makes the next digest. Retried whole it would be
 * refused until it failed, every alert of the burst with it. What cannot be halved (one alert, a
 * report, a digest of one) fails at once: the same body would be refused for 24 hours. Null for
 * any other answer.
 */
export function refusedForSize(
  store: Pick<Store, 'deliveries'>,
  deliveryId: number,
  result: AttemptResult,
  now: number,
  digest: boolean,
): { sendAgain: boolean; answer: AttemptResult } | null {
  if (result.ok || result.responseStatus !== 413) return null;
  const given = digest ? store.deliveries.halveDigest(deliveryId, now) : 0;
  if (given === 0) return { sendAgain: false, answer: { ...result, permanent: true, error: tooLargeFailure(result.error) } };
  const error = `${(result.error ?? '').replace(/\.$/, '')}. Too large for the receiver: the newest ${given} of its alerts go in the next digest, and this one is sent again now.`;
  return { sendAgain: true, answer: { ...result, permanent: false, error } };
}
