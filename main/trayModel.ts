import type { MonitorStatus } from '../agent/contract/monitors';
import { describeError } from '../agent/domain/text/errorText';
import { describeDuration } from '../agent/domain/time/durations';

/**
 * What the tray shows: one of four icons, a tooltip with the counts, and the failed monitors.
 * `idle` (grey) is for monitors that are all paused or waiting for their first run: neither
 * green nor red, since none of them has been seen working or failing.
 */
export type TrayState = 'ok' | 'busy' | 'failed' | 'idle';

export type { MonitorStatus };

export interface MonitorSummary {
  id: number;
  name: string;
  status: MonitorStatus;
}

/** Everything the tray needs to know about the agent at one moment. */
export interface TraySnapshot {
  monitors: MonitorSummary[];
  /** Certificates that are still valid but expire soon. */
  expiringCertificates: number;
  /** Certificates that expired or could not be checked. */
  failedCertificates: number;
  /** Servers whose crontab watcher went quiet (missed two reports and a minute): a machine may be down. */
  quietServers?: Array<{ id: number; name: string }>;
}

export interface FailedEntry {
  label: string;
  route: string;
  /** The monitor (absent for the "and N more" entry), so the menu can pause it. */
  monitorId?: number;
}

export interface TrayModel {
  state: TrayState;
  tooltip: string;
  /** The failed monitors by name, at most MAX_FAILED_IN_MENU, then one entry for the rest. */
  failed: FailedEntry[];
}

export const MAX_FAILED_IN_MENU = 10;

/** A state change is drawn within this long (the promise: within a second); a burst is drawn once. */
export const REDRAW_DELAY_MS = 200;
/** Redraw this often anyway, so a mute that runs out or a certificate nearing expiry shows. */
export const REDRAW_EVERY_MS = 30_000;

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** Paused and new monitors have not been seen working or failing: they never colour the icon. */
const isIdle = (m: MonitorSummary) => m.status === 'paused' || m.status === 'new';

/**
 * The icon: failed beats busy (a run in progress or a certificate expiring) beats ok; idle
 * when every monitor is paused or new (and no certificate says otherwise).
 */
export function trayState(snapshot: TraySnapshot): TrayState {
  if (snapshot.failedCertificates > 0 || (snapshot.quietServers?.length ?? 0) > 0 || snapshot.monitors.some((m) => m.status === 'failed')) return 'failed';
  if (snapshot.expiringCertificates > 0 || snapshot.monitors.some((m) => m.status === 'running')) return 'busy';
  if (snapshot.monitors.length > 0 && snapshot.monitors.every(isIdle)) return 'idle';
  return 'ok';
}

/**
 * "Cronbeat: 2 failed, 1 running, 9 fine, 1 new, 3 paused · 1 certificate expiring" (short
 * enough for Windows' 127). New and paused monitors are counted apart, never as fine.
 */
export function trayTooltip(snapshot: TraySnapshot): string {
  const count = (status: MonitorStatus) => snapshot.monitors.filter((m) => m.status === status).length;
  const quietServers = snapshot.quietServers?.length ?? 0;
  if (snapshot.monitors.length === 0 && snapshot.expiringCertificates + snapshot.failedCertificates + quietServers === 0) {
    return 'Cronbeat: no monitors yet';
  }
  const parts: string[] = [];
  if (count('failed') > 0) parts.push(`${count('failed')} failed`);
  if (count('running') > 0) parts.push(`${count('running')} running`);
  const idle = count('new') + count('paused');
  const onlyServers = snapshot.monitors.length === 0 && quietServers > 0;
  if (count('monitoring') > 0 || (parts.length === 0 && idle === 0 && !onlyServers)) parts.push(`${count('monitoring')} fine`);
  if (count('new') > 0) parts.push(`${count('new')} new`);
  if (count('paused') > 0) parts.push(`${count('paused')} paused`);
  const certificates: string[] = [];
  if (snapshot.failedCertificates > 0) {
    certificates.push(plural(snapshot.failedCertificates, 'certificate failed', 'certificates failed'));
  }
  if (snapshot.expiringCertificates > 0) {
    certificates.push(plural(snapshot.expiringCertificates, 'certificate expiring', 'certificates expiring'));
  }
  if (quietServers > 0) certificates.push(plural(quietServers, 'server quiet', 'servers quiet'));
  return `Cronbeat: ${[parts.join(', '), ...certificates].filter(Boolean).join(' · ')}`;
}

/** The failed monitors in name order, each leading to its page; the overflow leads to the filtered list. */
export function failedEntries(monitors: MonitorSummary[], quietServers: TraySnapshot['quietServers'] = []): FailedEntry[] {
  const failed: FailedEntry[] = monitors
    .filter((m) => m.status === 'failed')
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
    .map((m) => ({ label: m.name, route: `/monitors/${m.id}`, monitorId: m.id }));
  const byName = [...quietServers].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  failed.push(...byName.map((server) => ({ label: `${server.name} (quiet)`, route: `/servers/${server.id}` })));
  const shown = failed.slice(0, MAX_FAILED_IN_MENU);
  const rest = failed.length - shown.length;
  if (rest > 0) shown.push({ label: `and ${rest} more…`, route: '/monitors?status=failed' });
  return shown;
}

export function trayModel(snapshot: TraySnapshot): TrayModel {
  return { state: trayState(snapshot), tooltip: trayTooltip(snapshot), failed: failedEntries(snapshot.monitors, snapshot.quietServers) };
}

/** Windows cuts a tray tooltip at 127 characters. */
const TOOLTIP_MAX = 127;

/**
 * The model `read` gives, or, when the monitors cannot be read (a damaged database), a red tray
 * saying so: green would claim all is well, and an error thrown from the redraw timer is a crash dialog.
 */
export function readTrayModel(read: () => TrayModel): TrayModel {
  try {
    return read();
  } catch (error) {
    return { state: 'failed', tooltip: cutTooltip(`Cronbeat cannot read its monitors: ${describeError(error)}`), failed: [] };
  }
}

const cutTooltip = (tooltip: string) => (tooltip.length > TOOLTIP_MAX ? `${tooltip.slice(0, TOOLTIP_MAX - 1)}…` : tooltip);

/** How the tray sees an agent on another machine: by name, and whether it can be reached. */
export interface RemoteView {
  name: string;
  /** What the tray last read; null until the first read. */
  snapshot: TraySnapshot | null;
  /** Since when it is unreachable, once that was announced (over a minute); null while fine. */
  unreachableSince: number | null;
  /** Why following stopped for good (a revoked key); null while following. */
  refused: string | null;
  /** The status it stopped at (401 a refused key, 403 a key that may not read, 421 a name the agent does not answer to). */
  refusedStatus?: number | null;
  /** Why its monitors could not be read while its stream is up; null once they were. */
  unreadable?: string | null;
  /** How far its clock is ahead of this computer's (behind: negative); null when unknown. */
  clockOffsetMs?: number | null;
  /** Since when its stream is being connected again (under a minute: not unreachable yet); null while connected. */
  reconnectingSince?: number | null;
}

/**
 * A clock this much off is said: the agent decides when a run is late by its own clock, so its
 * failures and the times the dashboard shows are not what the user reads on theirs. Its answers'
 * Date has whole seconds and the request takes a moment: less is not worth a word (the agent's
 * own rule for a client's clock is the same minute).
 */
const CLOCK_OFF_MS = 60_000;

function clockWords(offsetMs: number | null | undefined): string | null {
  if (offsetMs === null || offsetMs === undefined || Math.abs(offsetMs) <= CLOCK_OFF_MS) return null;
  return `its clock is ${describeDuration(Math.abs(offsetMs))} ${offsetMs > 0 ? 'ahead of' : 'behind'} this computer's`;
}

/** What the tray says of an agent that stopped being followed, by the status it answered. */
export function refusalWords(status: number | null | undefined): string {
  if (status === 403) return 'this key may not read it';
  if (status === 421) return 'it does not answer to this name';
  if (status === undefined || status === null || status === 401) return 'the key was refused';
  return `it refused to stream its events (${status})`;
}

/**
 * The tray of a remote agent: its monitors as for the local one, named ("Cronbeat on
 * backup-box: 1 failed"), or grey while it cannot be reached or refused the key.
 */
export function remoteTrayModel(view: RemoteView, timeOfDay: (ms: number) => string): TrayModel {
  const on = `Cronbeat on ${view.name}`;
  if (view.refused !== null) return { state: 'idle', tooltip: `${on}: ${refusalWords(view.refusedStatus)}`, failed: [] };
  if (view.unreachableSince !== null) return { state: 'idle', tooltip: `${on} unreachable since ${timeOfDay(view.unreachableSince)}`, failed: [] };
  // Red, as the local tray for a database it cannot read: what was read before may be green no more.
  if (view.unreadable) return { state: 'failed', tooltip: cutTooltip(`${on} cannot read its monitors: ${view.unreadable}`), failed: [] };
  if (view.snapshot === null) return { state: 'idle', tooltip: `${on}: connecting…`, failed: [] };
  const model = trayModel(view.snapshot);
  const notes = [
    // The counts are what was read before the loss: said so, or they would pass for now.
    ...(view.reconnectingSince !== null && view.reconnectingSince !== undefined ? [`reconnecting since ${timeOfDay(view.reconnectingSince)}`] : []),
    clockWords(view.clockOffsetMs),
  ];
  const said = notes.filter((note): note is string => note !== null);
  const tooltip = model.tooltip.replace(/^Cronbeat:/, `${on}:`);
  return { ...model, tooltip: said.length > 0 ? cutTooltip([tooltip, ...said].join(' · ')) : tooltip };
}

/** Two models that would draw the same tray: no need to rebuild icon, tooltip and menu. */
export function sameTrayModel(a: TrayModel | null, b: TrayModel): boolean {
  return a !== null && JSON.stringify(a) === JSON.stringify(b);
}
