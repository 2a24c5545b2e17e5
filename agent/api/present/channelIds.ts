import type { Store } from '../../db/store';
import type { Subject } from '../../db/channelRoutes';
import { HttpError } from '../http/errors';

/**
 * The channel_ids of a monitor, server or certificate, as every route that takes them
 * handles them: each id must be a live channel of the company (422 naming channel_ids, nothing
 * changed); undefined leaves the list as it is, null means all channels. Call before writing.
 */
export function checkChannelIds(store: Store, companyId: number, channelIds: number[] | null | undefined): void {
  if (!channelIds) return;
  const unknown = store.channelRoutes.unknownChannelIds(companyId, channelIds);
  if (unknown.length > 0) {
    throw HttpError.validation({ channel_ids: [`The channel ids field names no channel of yours: ${unknown.join(', ')}.`] });
  }
}

/** Stores a checked channel_ids (undefined: nothing to do); whether the subject's list is another than it was. */
export function saveChannelIds(store: Store, companyId: number, subject: Subject, channelIds: number[] | null | undefined): boolean {
  if (channelIds === undefined) return false;
  const before = JSON.stringify(store.channelRoutes.channelIds(subject));
  store.channelRoutes.setChannelIds(companyId, subject, channelIds);
  return JSON.stringify(store.channelRoutes.channelIds(subject)) !== before;
}

/**
 * Creates a monitor, server or certificate with `create` and stores its channel_ids with it, in
 * one transaction; the ids are checked first, so a bad one writes nothing.
 */
export function createWithChannelIds<Row extends { id: number }>(
  store: Store,
  companyId: number,
  type: Subject['type'],
  channelIds: number[] | null | undefined,
  create: () => Row,
): Row {
  checkChannelIds(store, companyId, channelIds);
  return store.db.transaction(() => {
    const row = create();
    saveChannelIds(store, companyId, { type, id: row.id }, channelIds);
    return row;
  })();
}
