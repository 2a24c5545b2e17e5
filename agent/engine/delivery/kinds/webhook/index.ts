import { JSON_HEADERS, SIGNATURE_HEADER, signBody, type ChannelKindModule, type MessageContext } from '../kind';
import { permanent } from './errors';

/** A webhook: the alert (cronbeat.alert.v1), digest (cronbeat.digest.v1) or report (cronbeat.report.v1) as JSON, signed, with a delivery id. */
function post(url: string, secret: string | undefined, event: string, body: string, context: MessageContext) {
  return {
    transport: 'http' as const,
    url,
    headers: {
      ...JSON_HEADERS,
      [SIGNATURE_HEADER]: signBody(secret ?? '', body),
      'X-Cronbeat-Delivery': context.deliveryKey,
      'X-Cronbeat-Event': event,
    },
    body,
  };
}

export const webhook: ChannelKindModule<'webhook'> = {
  alert: (settings, input, context) => post(settings.url, settings.secret, input.alert.event, JSON.stringify(input.webhook()), context),
  digest: (settings, input, context) => post(settings.url, settings.secret, 'digest', input.webhookJson(), context),
  report: (settings, input, context) => post(settings.url, settings.secret, 'report', JSON.stringify(input.webhook()), context),
  digestAsData: true,
  permanent,
};
