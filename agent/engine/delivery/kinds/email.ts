import { OUTPUT_BOUNDS, plainText, type AlertMessage } from '../../../domain/alertMessage';
import { DIGEST_NAMES } from '../../../domain/digestMessage';
import { subjectName } from '../../../domain/alertWords';
import type { Alert } from '../../../domain/alert';
import type { ChannelSettings } from '../../../contract/channels';
import { digestText, escapeHtml, type ChannelKindModule } from './kind';

/** The email subject, state first so an inbox sorts at a glance: "FAILED | nightly-backup on web-1 (exit 3)". */
export function emailSubject(alert: Alert, message: AlertMessage): string {
  if (alert.reason.kind === 'other') return `${message.state} | ${message.title}`;
  const code = alert.reason.kind === 'failed' && alert.reason.exit_code !== null ? ` (exit ${alert.reason.exit_code})` : '';
  return `${message.state} | ${subjectName(alert)}${code}`;
}

const why = (channelName: string) =>
  `You get this because this address is the Cronbeat channel "${channelName}". To pause a monitor, open it and choose Pause.`;
const footer = (channelName: string) => `<p style="color:#666;font-size:small">${escapeHtml(why(channelName))}</p>`;

function mail(settings: ChannelSettings['email'], content: { subject: string; text: string; html: string }) {
  return { transport: 'email' as const, smtp: settings, mail: { from: settings.from, to: settings.to, ...content } };
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
    });
  },
  digest(settings, input, context) {
    const d = input.message(DIGEST_NAMES.email);
    const html = [
      `<p><strong>${escapeHtml(d.title)}</strong></p>`,
      `<ul>${d.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
      `<p><a href="${escapeHtml(d.link)}">Open in Cronbeat</a></p>`,
      footer(context.channelName),
    ];
    const state = d.tone === 'bad' ? 'FAILED' : d.tone === 'good' ? 'RECOVERED' : 'ALERTS';
    return mail(settings, { subject: `${state} | ${d.title}`, text: `${digestText(d)}\n\n-- \n${why(context.channelName)}\n`, html: html.join('\n') });
  },
};
