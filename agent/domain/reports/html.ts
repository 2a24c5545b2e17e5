import { escapeHtml } from '../text/chatText';
import { moreMonitors, reportBody, type ReportMessage } from './message';

/** A report as simple HTML for an email: headings and lists, no table that a narrow phone would scroll sideways. */
export function reportHtml(m: ReportMessage, shown: number): string {
  const markup = {
    escape: (t: string) => `<li>${escapeHtml(t)}</li>`,
    heading: (t: string) => `</ul><h3 style="margin-bottom:4px">${escapeHtml(t)}</h3><ul>`,
    more: (n: number, link: string) => `</ul><p>${escapeHtml(moreMonitors(n))}: <a href="${escapeHtml(link)}">the full list</a></p><ul>`,
  };
  const body = reportBody(m, shown, markup)
    .filter((line) => line !== '')
    .join('\n');
  return [
    `<p><strong>${escapeHtml(m.title)}</strong><br>${escapeHtml(m.period)}<br>${escapeHtml(m.summary)}</p>`,
    `<ul>${body}</ul>`.replace(/<ul>\s*<\/ul>/g, ''),
    `<p><a href="${escapeHtml(m.link)}">Open in Cronbeat</a></p>`,
  ].join('\n');
}
