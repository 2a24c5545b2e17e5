import Router from '@koa/router';
import type { ApiDeps, AuthedRouter } from '../deps';
import { presentDelivery, presentNotification } from '../present';
import { HttpError } from '../errors';
import { pageQuery } from '../schemas';
import { validate } from '../validate';
import { pageOffset } from '../../domain/pagination';
import { pageRequestFrom, requestUrl, respondWithPage } from '../paging';

export function notificationRoutes({ store, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router();
  router.use(requireToken);

  router.get('/api/notifications', (ctx) => {
    const { request, keptQuery } = pageRequestFrom(validate(pageQuery, ctx.query));
    const { companyId } = ctx.state;
    const rows = store.notifications.page(companyId, request.perPage, pageOffset(request));
    respondWithPage(ctx, {
      data: rows.map(presentNotification),
      total: store.notifications.count(companyId),
      request,
      path: requestUrl(ctx),
      keptQuery,
    });
  });

  /** Where a notification was delivered (issue 14): one entry per channel, with its state. */
  router.get('/api/notifications/:id/deliveries', (ctx) => {
    const notification = store.notifications.find(ctx.params.id ?? '');
    if (!notification || notification.notifiable_id !== ctx.state.companyId) throw HttpError.notFound('Notification');
    ctx.body = store.deliveries.forNotification(notification.id).map(presentDelivery);
  });

  return router;
}
