/*
 * Status badges: what a badge says for a monitor or a tag, drawn as a flat
 * shields.io-style SVG or given as shields.io's endpoint JSON. Pure.
 */

import { terminalText, xmlText } from '../text/controlCharacters';

/** A monitor's status, as the API's `status` field says it. */
type MonitorStatus = 'new' | 'monitoring' | 'running' | 'failed' | 'paused';

export interface BadgeFace {
  label: string;
  message: 'up' | 'down' | 'running' | 'new' | 'paused';
  /** A shields.io colour name, and the hex drawn for it. */
  color: 'brightgreen' | 'red' | 'blue' | 'lightgrey';
}

const HEX: Record<BadgeFace['color'], string> = { brightgreen: '#4c1', red: '#e05d44', blue: '#007ec6', lightgrey: '#9f9f9f' };

const FACES: Record<MonitorStatus, Omit<BadgeFace, 'label'>> = {
  monitoring: { message: 'up', color: 'brightgreen' },
  running: { message: 'running', color: 'blue' },
  failed: { message: 'down', color: 'red' },
  new: { message: 'new', color: 'lightgrey' },
  paused: { message: 'paused', color: 'lightgrey' },
};

/** A monitor's badge: up, running, down, new or paused. */
export function monitorBadge(label: string, status: MonitorStatus): BadgeFace {
  return { label, ...FACES[status] };
}

/**
 * A tag's badge, for all its monitors: down when any is failed, else up when any is watched
 * (monitoring or running), else paused when all are paused, else new. Nothing for no monitor.
 */
export function tagBadge(label: string, statuses: readonly MonitorStatus[]): BadgeFace | undefined {
  if (statuses.length === 0) return undefined;
  if (statuses.includes('failed')) return monitorBadge(label, 'failed');
  if (statuses.some((s) => s === 'monitoring' || s === 'running')) return monitorBadge(label, 'monitoring');
  if (statuses.every((s) => s === 'paused')) return monitorBadge(label, 'paused');
  return monitorBadge(label, 'new');
}

/** shields.io's endpoint format (https://shields.io/badges/endpoint-badge). */
export function shieldsEndpoint(face: BadgeFace, cacheSeconds: number) {
  return { schemaVersion: 1, label: face.label, message: face.message, color: face.color, cacheSeconds };
}

export const MAX_BADGE_LABEL = 60;

/**
 * Text for SVG: the five characters XML gives a meaning escaped, so a name can never become
 * markup, and control characters (which XML 1.0 has no place for, or which would act on the
 * reader) written out, so the badge is well-formed XML whatever a name stored before they were
 * refused holds.
 */
export const escapeXml = xmlText;

/** Roughly how wide Verdana 11px draws `text`, in pixels: enough to size a badge without a font. */
function textWidth(text: string): number {
  let width = 0;
  for (const c of text) {
    if ('iljtfrI.,:;!|\' '.includes(c)) width += 3.7;
    else if ('mwMW@%'.includes(c)) width += 10.5;
    else if (/[A-Z0-9#&]/.test(c)) width += 7.5;
    else width += 6.6;
  }
  return Math.ceil(width);
}

/** A flat badge, label on grey and message on the status colour; long labels are cut with "…". */
export function badgeSvg(face: BadgeFace): string {
  const shown = [...terminalText(face.label, { oneLine: true })];
  const label = shown.length > MAX_BADGE_LABEL ? `${shown.slice(0, MAX_BADGE_LABEL - 1).join('')}…` : shown.join('');
  const left = textWidth(label) + 12;
  const right = textWidth(face.message) + 12;
  const total = left + right;
  const title = escapeXml(`${label}: ${face.message}`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${total}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${HEX[face.color]}"/><rect width="${total}" height="20" fill="url(#s)"/></g>`,
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">',
    `<text x="${left / 2}" y="15" fill="#010101" fill-opacity=".3">${escapeXml(label)}</text><text x="${left / 2}" y="14">${escapeXml(label)}</text>`,
    `<text x="${left + right / 2}" y="15" fill="#010101" fill-opacity=".3">${escapeXml(face.message)}</text><text x="${left + right / 2}" y="14">${escapeXml(face.message)}</text>`,
    '</g></svg>',
  ].join('');
}
