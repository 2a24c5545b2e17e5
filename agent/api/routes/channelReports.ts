import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { HttpError } from '../http/errors';
import { pathId } from '../http/params';
import { validate } from '../http/validate';
import { queryParameters } from '../http/query';
import { requestOrigin } from '../http/paging';
import { reportPreviewQuery, type ReportPreviewResource } from '../../contract/reports';
import { channelKind } from '../../contract/channels';
import { reportPreview } from '../../engine/reports/preview';
import { seesChannelUrls } from '../../domain/access/keyScopes';
import { channelSecretValues, redactValues } from '../../domain/channels/secrets';
import { MASK, valuesHiddenFromReaders } from '../../domain/channels/settings';
import { tokenView } from '../present/tokenVisibility';

/**
 * Every string in `value` with `hidden` taken out: one that is a hidden value is its mask (an ntfy
 * topic as the request's `topic`, however short), and one holding a hidden value has it redacted.
 */
function withoutValues<T>(value: T, hidden: readonly string[]): T {
  if (typeof value === 'string') return (hidden.includes(value) ? MASK : redactValues(value, hidden)) as T;
  if (Array.isArray(value)) return value.map((item) => withoutValues(item, hidden)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutValues(item, hidden)])) as T;
  }
  return value;
}

/**
 * GET /api/channels/{id}/report-preview: the report the channel would be sent for the last whole
 * period (docs/channels.md, "Reports"). It reads only, so a read-only key may ask; the request it
 * shows is the one the channel would send, which names where it sends (an ntfy topic in its body),
 * so a key that is not shown that in the channel's settings is not shown it here either.
 */
export function channelReportRoutes({ store, clock, requireToken, adminZone, publicUrl }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.use(requireToken);
  router.get('/api/channels/:id/report-preview', async (ctx) => {
    const channel = store.channels.find(ctx.state.companyId, pathId(ctx.params.id, 'Channel'));
    if (!channel) throw HttpError.notFound('Channel');
    const { frequency } = validate(reportPreviewQuery, { frequency: queryParameters(ctx.query).frequency });
    // Links as a sent report has them: under the public URL, else where this request came in.
    const dashboardUrl = publicUrl?.current() ?? requestOrigin(ctx);
    const preview: ReportPreviewResource = await reportPreview({ store, adminZone: adminZone ?? 'UTC', dashboardUrl }, channel, frequency, clock());
    const kind = channelKind(channel.kind);
    const hidden = [...channelSecretValues(kind, channel.settings), ...(seesChannelUrls(ctx.state.scope) ? [] : valuesHiddenFromReaders(kind, channel.settings))];
    // Only the request holds settings; the report's own words and times are left as they are.
    const shown = hidden.length === 0 ? preview : { ...preview, message: withoutValues(preview.message, hidden) };
    // Monitor names are a person's words and may quote a pulse URL (one named after its curl line).
    ctx.body = tokenView(store, ctx.state.scope).json(shown);
  });
  return router;
}
