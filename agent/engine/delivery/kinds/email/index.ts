import { OUTPUT_BOUNDS, plainText, type AlertMessage } from '../../../../domain/alerts/messageLimits';
import { DIGEST_NAMES, fitDigestLines } from '../../../../domain/alerts/digestMessage';
import { cutText, oneLine } from '../../../../domain/text/chatText';
import { subjectName } from '../../../../domain/alerts/words';
import { isNoticeReason, type Alert } from '../../../../domain/alerts/alert';
import type { ChannelSettings } from '../../../../contract/channels';
import { andMore, digestText, escapeHtml, fitReportItems, reportText, type ChannelKindModule, type MessageContext } from '../kind';
import { reportHtml } from '../../../../domain/reports/html';
import { parseEmailAddresses } from '../../../../domain/channels/emailAddresses';
import { permanent } from './errors';

/** A header line may hold 998 octets; a subject is read in an inbox's one line. No inbox refuses a long mail, but past this a digest's lines are read by no one. */
const LIMIT = { subject: 200, digestBody: 100_000 } as const;

/** A subject on one line (no CR or LF can start a header of its own), cut to what an inbox shows. */
const subjectLine = (text: string) => cutText(oneLine(text), LIMIT.subject);

/** The email subject, state first so an inbox sorts at a glance: "FAILED | nightly-backup on web-1 (exit 3)". */
export function emailSubject(alert: Alert, message: AlertMessage): string {
  if (isNoticeReason(alert.reason)) return subjectLine(`${message.state} | ${message.title}`);
  const { reason } = alert;
  const code =
    reason.kind === 'failed' && reason.exit_code !== null
      ? ` (exit ${reason.exit_code})`
      : reason.kind === 'failed_times'
        ? ` (${reason.times} times in a row)`
        : '';
  // The name gives way, so the state and the exit code stay.
  return subjectLine(`${message.state} | ${cutText(oneLine(subjectName(alert)), LIMIT.subject - 40)}${code}`);
}

const why = (channelName: string) =>
  `You get this because this address is the Cronbeat channel "${channelName}". To pause a monitor, open it and choose Pause.`;
const footer = (channelName: string) => `<p style="color:#666;font-size:small">${escapeHtml(why(channelName))}</p>`;

/** Those of `owed` (addresses a server deferred) still among the channel's recipients: one taken out since is not written to. */
function stillOwed(settings: ChannelSettings['email'], owed: string[]): string[] {
  const now = new Set((parseEmailAddresses(settings.to) ?? []).map((a) => a.address.toLowerCase()));
  return owed.filter((address) => now.has(address.toLowerCase()));
}

function mail(settings: ChannelSettings['email'], content: { subject: string; text: string; html: string }, context: MessageContext) {
  const recipients = context.recipients ? { recipients: stillOwed(settings, context.recipients) } : {};
  return { transport: 'email' as const, smtp: settings, mail: { from: settings.from, to: settings.to, ...content }, ...recipients };
}

/** An alert's email: the state-first subject, a text part, and HTML with the output in a monospace block. */
export const email: ChannelKindModule<'email'> = {
  alert(settings, input, context) {
    const m = input.message(OUTPUT_BOUNDS.email);
    const html = [
      `<p><strong>${escapeHtml(m.title)}</strong></p>`,
      `<p>${escapeHtml(m.what)}</p>`,
      m.facts.length ? `<ul>${m.facts.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>` : '',
      m.output.length
        ? `<p>${m.outputCut ? 'Last output (end):' : 'Output:'}</p><pre style="font-family:monospace;background:#f6f8fa;padding:8px">${escapeHtml(m.output.join('\n'))}</pre>`
        : '',
      `<p><a href="${escapeHtml(m.link)}">Open in Cronbeat</a></p>`,
      footer(context.channelName),
    ];
    return mail(settings, {
      subject: emailSubject(input.alert, m),
      text: `${plainText(m)}\n\n-- \n${why(context.channelName)}\n`,
      html: html.filter(Boolean).join('\n'),
    }, context);
  },
  digest(settings, input, context) {
    const d = input.message(DIGEST_NAMES.email);
    // No inbox refuses a long mail, but 5,000 servers' lines are read by no one: the link has them all.
    const shown = fitDigestLines(d, (s) => digestText(d, s).length <= LIMIT.digestBody);
    const html = [
      `<p><strong>${escapeHtml(d.title)}</strong></p>`,
      `<ul>${shown.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
      shown.more ? `<p>${escapeHtml(andMore(shown.more))}</p>` : '',
      `<p><a href="${escapeHtml(d.link)}">Open in Cronbeat</a></p>`,
      footer(context.channelName),
    ];
    const state = d.tone === 'bad' ? 'FAILED' : d.tone === 'good' ? 'RECOVERED' : 'ALERTS';
    return mail(settings, { subject: subjectLine(`${state} | ${d.title}`), text: `${digestText(d, shown)}\n\n-- \n${why(context.channelName)}\n`, html: html.filter(Boolean).join('\n') }, context);
  },
  report(settings, input, context) {
    const m = input.message();
    const shown = fitReportItems(m, (k) => reportText(m, k).length <= LIMIT.digestBody);
    return mail(settings, {
      subject: subjectLine(`REPORT | ${m.title}`),
      text: `${reportText(m, shown)}\n\n-- \n${why(context.channelName)}\n`,
      html: `${reportHtml(m, shown)}\n${footer(context.channelName)}`,
    }, context);
  },
  permanent,
};
