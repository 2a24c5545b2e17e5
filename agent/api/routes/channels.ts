import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { pathId } from '../http/params';
import { presentChannel } from '../present/present';
import { channelInput, channelKind, channelPatch, channelSettingsInput, channelSettingsSent, type ChannelKind } from '../../contract/channels';
import { validate } from '../http/validate';
import { noFields } from '../../contract/fields';
import { isMasked, MASK, maskSecret, mergeSettings, settingsForReaders } from '../../domain/channels/settings';
import { seesChannelUrls, type KeyScope } from '../../domain/access/keyScopes';
import { changedDestination, secretsToGiveAgain, urlPassword } from '../../domain/channels/secrets';
import { CHANNEL_DELETED } from '../../domain/channels/delivery';
import type { ChannelRow } from '../../db/channels';
import { tokenView } from '../present/tokenVisibility';

/** A webhook's signing secret when the admin gives none: 32 random bytes. */
const newWebhookSecret = () => randomBytes(32).toString('base64url');

/** `settings` checked by the kind's own rules (422 naming "settings.<field>"), as stored. */
function checkedSettings(kind: ChannelKind, settings: Record<string, unknown>): Record<string, unknown> {
  return validate(channelSettingsInput(kind), { settings }).settings as Record<string, unknown>;
}

/** Refuses any setting the client sent that `kind` does not take (422 naming "settings.<field>"). */
/**
 * The settings as the client sent them: parsed into a record, a setting called "__proto__" became
 * the object's prototype and left its keys, so it would be dropped instead of named.
 */
function sentSettings(body: Record<string, unknown>, parsed: Record<string, unknown>): Record<string, unknown> {
  const raw = body.settings;
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : parsed;
}

function refuseUnknownSettings(kind: ChannelKind, sent: Record<string, unknown>): void {
  validate(channelSettingsSent(kind), { settings: sent });
}

/**
 * A PATCH that points a channel elsewhere must give its secrets again: a 422
 * naming each stored secret it leaves out or sends as its mask, and a webhook URL whose
 * user:pass@ still shows the mask. Nothing is changed then.
 */
function refuseSecretsLeftBehind(kind: ChannelKind, stored: Record<string, unknown>, merged: Record<string, unknown>, sent: Record<string, unknown>) {
  const errors: Record<string, string[]> = {};
  const fields = changedDestination(channelKind(kind), stored, merged).map((f) => f.replace(/_/g, ' '));
  for (const field of secretsToGiveAgain(channelKind(kind), stored, merged, (f) => f in sent && !isMasked(sent[f]))) {
    errors[`settings.${field}`] = [
      `The ${field.replace(/_/g, ' ')} field is required when the ${fields.join(' or ')} changes: a secret is never sent to a new address unless you give it again.`,
    ];
  }
  if (urlPassword(merged.url) === MASK) {
    errors['settings.url'] = ['The url field must give its password again (not ********) when the address changes.'];
  }
  if (Object.keys(errors).length > 0) throw HttpError.validation(errors);
}

/**
 * A secret sent as a mask means "keep it" only when it is the mask shown for the stored one: a
 * Slack URL's mask under another origin (the admin changed the host, not the token) is a 422
 * naming the field, never a silent 200 that keeps the old hook.
 */
function refuseForeignMasks(kind: ChannelKind, stored: Record<string, unknown>, sent: Record<string, unknown>) {
  const errors: Record<string, string[]> = {};
  for (const field of channelKind(kind).secrets) {
    const shown = maskSecret(stored[field]);
    if (!isMasked(sent[field]) || sent[field] === shown) continue;
    const name = field.replace(/_/g, ' ');
    errors[`settings.${field}`] = [
      `The ${name} field is masked (${String(sent[field])}) but is not the stored one (${shown ?? 'none is stored'}): send it back as shown to keep it, or give the whole new URL.`,
    ];
  }
  if (Object.keys(errors).length > 0) throw HttpError.validation(errors);
}

/** /api/channels: where notifications are delivered besides the desktop (docs/channels.md). */
export function channelRoutes({ store, events, clock, requireToken, deliveries }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.use(requireToken);
  const findChannel = (companyId: number, raw: string | undefined) => {
    const channel = store.channels.find(companyId, pathId(raw, 'Channel'));
    if (!channel) throw HttpError.notFound('Channel');
    return channel;
  };

  /** A channel as a key of `scope` reads it: a read-only key sees where it sends by origin alone. */
  const shownTo = (scope: KeyScope) => (row: ChannelRow) => {
    const channel = presentChannel(row);
    // A name may quote a pulse URL: a read-only key sees no live token in it either.
    return seesChannelUrls(scope) ? channel : tokenView(store, scope).named({ ...channel, settings: settingsForReaders(channelKind(row.kind), row.settings) });
  };

  router.get('/api/channels', (ctx) => {
    ctx.body = store.channels.list(ctx.state.companyId).map(shownTo(ctx.state.scope));
  });

  router.post('/api/channels', async (ctx) => {
    const body = await readJsonBody(ctx);
    const input = validate(channelInput, body);
    refuseUnknownSettings(input.kind, sentSettings(body, input.settings));
    const settings = checkedSettings(input.kind, input.settings);
    // The one time a generated secret is shown: the receiver needs it to check signatures.
    const generatedSecret = input.kind === 'webhook' && !settings.secret ? newWebhookSecret() : null;
    if (generatedSecret) settings.secret = generatedSecret;
    const channel = store.channels.create({
      companyId: ctx.state.companyId,
      name: input.name,
      kind: input.kind,
      settings,
      quietHours: input.quiet_hours,
      remindEveryHours: input.remind_every_hours,
      now: clock(),
    });
    events.emit({ type: 'channel.changed', companyId: channel.company_id, channelId: channel.id });
    ctx.status = 201;
    ctx.body = generatedSecret ? { ...presentChannel(channel), generated_secret: generatedSecret } : presentChannel(channel);
  });

  router.get('/api/channels/:id', (ctx) => {
    ctx.body = shownTo(ctx.state.scope)(findChannel(ctx.state.companyId, ctx.params.id));
  });

  router.patch('/api/channels/:id', async (ctx) => {
    const { companyId } = ctx.state;
    findChannel(companyId, ctx.params.id);
    const body = await readJsonBody(ctx);
    // Read again once the body is in: another edit may have come meanwhile, and this one is merged over it.
    const channel = findChannel(companyId, ctx.params.id);
    const input = validate(channelPatch, body);
    const sent = input.settings ?? {};
    refuseUnknownSettings(channel.kind, sentSettings(body, sent));
    refuseForeignMasks(channel.kind, channel.settings, sent);
    const settings = checkedSettings(channel.kind, mergeSettings(channelKind(channel.kind), channel.settings, sent));
    const moved = changedDestination(channelKind(channel.kind), channel.settings, settings).length > 0;
    if (moved) refuseSecretsLeftBehind(channel.kind, channel.settings, settings, sent);
    // A webhook always signs: clearing its secret keeps the old one, or makes a new one (shown once) for a new address.
    const generatedSecret = channel.kind === 'webhook' && !settings.secret && moved ? newWebhookSecret() : null;
    if (channel.kind === 'webhook' && !settings.secret) settings.secret = generatedSecret ?? channel.settings.secret;
    const quietHours = input.quiet_hours === undefined ? channel.quiet_hours : input.quiet_hours;
    const now = clock();
    const name = input.name ?? channel.name;
    const remindEveryHours = input.remind_every_hours === undefined ? channel.remind_every_hours : input.remind_every_hours;
    const sameSettings = (a: object, b: object) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
    // Values it has already are no edit, as an Eloquent model saved clean is not touched: updated_at stays.
    if (name === channel.name && sameSettings(settings, channel.settings) && JSON.stringify(quietHours) === JSON.stringify(channel.quiet_hours) && remindEveryHours === channel.remind_every_hours) {
      ctx.body = presentChannel(channel);
      return;
    }
    const updated = store.db.transaction(() => {
      const row = store.channels.update(companyId, channel.id, { name, settings, quietHours, remindEveryHours }, now);
      // Quiet hours removed or changed: what they held is looked at again now (and held again if still inside).
      if (row && JSON.stringify(quietHours) !== JSON.stringify(channel.quiet_hours)) store.deliveries.dueNowForChannel(channel.id, now);
      // A new interval counts from the last alert told, not from when the old one planned the next.
      if (row && remindEveryHours !== null && remindEveryHours !== channel.remind_every_hours) store.reminders.replanChannel(channel.id, remindEveryHours);
      return row;
    })();
    if (!updated) throw HttpError.notFound('Channel');
    events.emit({ type: 'channel.changed', companyId, channelId: updated.id });
    ctx.body = generatedSecret ? { ...presentChannel(updated), generated_secret: generatedSecret } : presentChannel(updated);
  });

  router.delete('/api/channels/:id', (ctx) => {
    const { companyId } = ctx.state;
    const channelId = pathId(ctx.params.id, 'Channel');
    const deleted = store.db.transaction(() => {
      if (!store.channels.delete(companyId, channelId, clock())) return false;
      store.deliveries.failPendingOfChannel(channelId, CHANNEL_DELETED);
      return true;
    })();
    if (!deleted) throw HttpError.notFound('Channel');
    events.emit({ type: 'channel.changed', companyId, channelId, deleted: true });
    ctx.status = 204;
  });

  /** Sends a test message now and answers what the receiver said (200 either way: the request itself worked). */
  router.post('/api/channels/:id/test', async (ctx) => {
    const channel = findChannel(ctx.state.companyId, ctx.params.id);
    validate(noFields, await readJsonBody(ctx));
    const result = await deliveries.sendTest(channel);
    ctx.body = {
      delivered: result.ok,
      response_status: result.responseStatus,
      response_body: result.responseBody,
      error: result.error,
    };
  });

  return router;
}
