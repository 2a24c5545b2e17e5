import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { presentAlert, presentDelivery, presentNotification } from '../present/present';
import { notificationCountQuery, notificationListQuery, notificationReadInput } from '../../contract/notifications';
import { channelKind } from '../../contract/channels';
import { validate } from '../http/validate';
import { queryParameters } from '../http/query';
import { noFields } from '../../contract/fields';
import { pageOffset } from '../../domain/formats/pagination';
import { channelSecretValues } from '../../domain/channels/secrets';
import { valuesHiddenFromReaders } from '../../domain/channels/settings';
import { seesChannelUrls } from '../../domain/access/keyScopes';
import { quietHoursEnd } from '../../domain/channels/delivery';
import { pageRequestFrom, requestUrl, respondWithPage } from '../http/paging';
import { tokenView } from '../present/tokenVisibility';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A UUID is the same in either letter case (RFC 9562 §4); ids are stored in lower case, as they are made. */
const notificationId = (raw: string | undefined) => (raw ?? '').toLowerCase();

export function notificationRoutes({ store, events, clock, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.use(requireToken);

  /**
   * The spec's list: its two kinds unless `kinds=all`, which lists every kind and adds each one's
   * `alert` (presentAlert: a monitor's alert as data, null for other kinds); `unread=1` for unread ones only.
   */
  router.get('/api/notifications', (ctx) => {
    const asked = queryParameters(ctx.query);
    const query = validate(notificationListQuery, asked);
    const { request, keptQuery } = pageRequestFrom(query);
    const filter = { kinds: query.kinds, unread: query.unread };
    // Page links keep the filter, so the next page lists the same notifications.
    if (asked.kinds !== undefined) keptQuery.kinds = filter.kinds;
    if (asked.unread !== undefined) keptQuery.unread = filter.unread ? '1' : '0';
    const { companyId } = ctx.state;
    const rows = store.notifications.page(companyId, request.perPage, pageOffset(request), filter);
    const view = tokenView(store, ctx.state.scope);
    respondWithPage(ctx, {
      // With kinds=all (Cronbeat's own list), each carries its alert as data for the dashboard to put in words.
      data: rows.map((row) => {
        const notification = view.notification(presentNotification(row));
        return filter.kinds === 'all' ? { ...notification, alert: view.json(presentAlert(row.alert)) } : notification;
      }),
      total: store.notifications.count(companyId, filter),
      request,
      path: requestUrl(ctx),
      keptQuery,
    });
  });

  /**
   * How many notifications the list would have in all (its `total`), as `{"total": N}`: the
   * dashboard's unread badge. The list's envelope names every page, so asking it for one
   * notification a page to read its total built an entry per notification: 124 MB and two
   * seconds of the agent's event loop at a million unread.
   */
  router.get('/api/notifications/count', (ctx) => {
    const filter = validate(notificationCountQuery, queryParameters(ctx.query));
    ctx.body = { total: store.notifications.count(ctx.state.companyId, filter) };
  });

  /** Where a notification was delivered: one entry per channel, with its state. */
  router.get('/api/notifications/:id/deliveries', (ctx) => {
    const notification = store.notifications.find(ctx.state.companyId, notificationId(ctx.params.id));
    if (!notification) throw HttpError.notFound('Notification');
    // Redacted again with each channel's current secrets: texts stored before a secret's form was known stay clean.
    const view = tokenView(store, ctx.state.scope);
    const now = clock();
    ctx.body = store.deliveries.forNotification(notification.id).map((row) => {
      const channel = store.channels.findAny(row.channel_id);
      // What the worker does with it (it defers a delivery to the end of its channel's quiet hours), said ahead.
      const heldUntil = channel && channel.deleted_at === null ? quietHoursEnd(channel.quiet_hours, now) : null;
      const kind = channel ? channelKind(channel.kind) : null;
      // A key that may only read is not shown where a channel sends (routes/channels.ts), nor in a receiver's echo of it.
      const hidden = channel && kind ? [...channelSecretValues(kind, channel.settings), ...(seesChannelUrls(ctx.state.scope) ? [] : valuesHiddenFromReaders(kind, channel.settings))] : [];
      return view.delivery(presentDelivery(row, hidden, heldUntil));
    });
  });

  router.post('/api/notifications/read', async (ctx) => {
    validate(noFields, await readJsonBody(ctx));
    const { companyId } = ctx.state;
    const marked = store.notifications.markAllRead(companyId, clock());
    if (marked > 0) events.emit({ type: 'notification.read', companyId, notificationId: null });
    ctx.body = { message: 'Notifications marked read.', marked };
  });

  router.patch('/api/notifications/:id', async (ctx) => {
    const { companyId } = ctx.state;
    const id = notificationId(ctx.params.id);
    if (!UUID.test(id) || !store.notifications.find(companyId, id)) throw HttpError.notFound('Notification');
    const { read } = validate(notificationReadInput, await readJsonBody(ctx));
    const notification = store.notifications.setRead(companyId, id, read, clock());
    if (!notification) throw HttpError.notFound('Notification');
    events.emit({ type: 'notification.read', companyId, notificationId: id });
    ctx.body = presentNotification(notification);
  });

  return router;
}
