import Router from '@koa/router';
import type { ApiDeps, AuthedRouter } from '../deps';
import { HttpError } from '../http/errors';
import { pathId } from '../http/params';
import { validate } from '../http/validate';
import { requestOrigin } from '../http/paging';
import { reportPreviewQuery } from '../../contract/reports';
import { reportPreview } from '../../engine/reports/preview';
import { seesChannelUrls } from '../../domain/access/keyScopes';
import { messageForReaders } from '../../domain/channels/settings';
import { channelKind } from '../../contract/channels';

/**
 * GET /api/channels/{id}/report-preview: the report the channel would be sent for the last whole
 * period (docs/channels.md, "Reports"). It reads only, so a read-only key may ask.
 */
export function channelReportRoutes({ store, clock, requireToken, adminZone, publicUrl }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router();
  router.use(requireToken);
  router.get('/api/channels/:id/report-preview', async (ctx) => {
    const channel = store.channels.find(ctx.state.companyId, pathId(ctx.params.id, 'Channel'));
    if (!channel) throw HttpError.notFound('Channel');
    const { frequency } = validate(reportPreviewQuery, { frequency: ctx.query.frequency });
    // Links as a sent report has them: under the public URL, else where this request came in.
    const dashboardUrl = publicUrl?.current() ?? requestOrigin(ctx);
    const preview = await reportPreview({ store, adminZone: adminZone ?? 'UTC', dashboardUrl }, channel, frequency, clock());
    // What a read-only key may not read of the channel's settings, it may not read in the message either.
    ctx.body = seesChannelUrls(ctx.state.scope) ? preview : { ...preview, message: messageForReaders(channelKind(channel.kind), channel.settings, preview.message) };
  });
  return router;
}
