import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import type { CertificateRow } from '../../db/certificates';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { pathId } from '../http/params';
import { presentCertificate, withChannelIds } from '../present/present';
import { certificateInput } from '../../contract/certificates';
import { channelIdsPatch } from '../../contract/channelIds';
import { checkChannelIds, createWithChannelIds, saveChannelIds } from '../present/channelIds';
import { validate } from '../http/validate';
import { noFields } from '../../contract/fields';

/** /api/ssl-certificates: our extension for the spec's SslCertificateNotification. */
export function certificateRoutes({ store, events, clock, requireToken, certificateChecks }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.use(requireToken);
  const findCertificate = (companyId: number, raw: string | undefined) => {
    const certificate = store.certificates.find(companyId, pathId(raw, 'Certificate'));
    if (!certificate) throw HttpError.notFound('Certificate');
    return certificate;
  };
  const present = (row: CertificateRow, channelIds = store.channelRoutes.channelIds({ type: 'ssl_certificate', id: row.id })) =>
    withChannelIds(presentCertificate(row), channelIds);
  /** Checks now (ahead of scheduled checks) and answers the row as it stands afterwards. */
  const checked = async (row: CertificateRow) => {
    const after = (await certificateChecks.checkNow(row.id)) ?? store.certificates.find(row.company_id, row.id);
    if (!after) throw HttpError.notFound('Certificate'); // deleted while it was being checked
    return present(after);
  };

  router.get('/api/ssl-certificates', (ctx) => {
    const routes = store.channelRoutes.channelIdsOfType(ctx.state.companyId, 'ssl_certificate');
    ctx.body = store.certificates.list(ctx.state.companyId).map((row) => present(row, routes.get(row.id) ?? null));
  });

  router.post('/api/ssl-certificates', async (ctx) => {
    const input = validate(certificateInput, await readJsonBody(ctx));
    const { companyId } = ctx.state;
    if (store.certificates.findByAddress(companyId, input.hostname, input.port)) {
      throw HttpError.validation({ hostname: [`${input.hostname} on port ${input.port} is already watched.`] });
    }
    const created = createWithChannelIds(store, companyId, 'ssl_certificate', input.channel_ids, () =>
      store.certificates.create({ companyId, hostname: input.hostname, port: input.port, warnDays: input.warn_days, now: clock() }),
    );
    events.emit({ type: 'certificate.changed', companyId, certificateId: created.id });
    const body = await checked(created);
    ctx.status = 201;
    ctx.body = body;
  });

  router.get('/api/ssl-certificates/:id', (ctx) => {
    ctx.body = present(findCertificate(ctx.state.companyId, ctx.params.id));
  });

  // A certificate has nothing else to edit: its PATCH takes channel_ids alone.
  router.patch('/api/ssl-certificates/:id', async (ctx) => {
    const { companyId } = ctx.state;
    const certificate = findCertificate(companyId, ctx.params.id);
    const input = validate(channelIdsPatch, await readJsonBody(ctx));
    checkChannelIds(store, companyId, input.channel_ids);
    saveChannelIds(store, companyId, { type: 'ssl_certificate', id: certificate.id }, input.channel_ids);
    events.emit({ type: 'certificate.changed', companyId, certificateId: certificate.id });
    ctx.body = present(certificate);
  });

  router.post('/api/ssl-certificates/:id/check', async (ctx) => {
    const certificate = findCertificate(ctx.state.companyId, ctx.params.id);
    validate(noFields, await readJsonBody(ctx));
    ctx.body = await checked(certificate);
  });

  router.delete('/api/ssl-certificates/:id', (ctx) => {
    const { companyId } = ctx.state;
    const id = pathId(ctx.params.id, 'Certificate');
    if (!store.certificates.delete(companyId, id, clock())) throw HttpError.notFound('Certificate');
    events.emit({ type: 'certificate.changed', companyId, certificateId: id, deleted: true });
    ctx.status = 204;
  });

  return router;
}
