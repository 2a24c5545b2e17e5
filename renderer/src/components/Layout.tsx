import { useEffect, useRef, type ReactNode } from 'react';
import type { Monitor } from '../api/types';
import { useApp } from '../lib/app-context';
import { useQuery } from '@tanstack/react-query';
import { queries } from '../lib/queries';
import { useUnreadCount } from '../lib/use-unread';
import { monitorStatus } from './StatusBadge';
import { AgentDownBanner, useAgentDown } from './AgentDown';
import { useCanEdit, useSignOut } from '../lib/access';
import './ReadOnlyNote.css';

const sections = [
  { path: '/', label: 'Overview' },
  { path: '/monitors', label: 'Monitors' },
  { path: '/servers', label: 'Servers' },
  { path: '/certificates', label: 'Certificates' },
  { path: '/maintenance', label: 'Maintenance' },
  { path: '/notifications', label: 'Notifications' },
  { path: '/channels', label: 'Channels' },
  { path: '/settings', label: 'Settings' },
];

function isCurrent(section: string, path: string): boolean {
  return section === '/' ? path === '/' : path === section || path.startsWith(`${section}/`);
}

const liveLabels = { live: 'Live', connecting: 'Connecting…', polling: 'Reconnecting…' } as const;

export function Layout(props: { path: string; search: string; children: ReactNode }) {
  const { liveState, desktop } = useApp();
  const signOut = useSignOut();
  const mainRef = useRef<HTMLElement>(null);
  const location = `${props.path}?${props.search}`;
  const firstLocation = useRef(location);
  const agentDown = useAgentDown();

  // A new screen starts at its top, and keyboard and screen-reader users land in it rather than
  // staying on the link they followed (unless the screen focused a field of its own).
  useEffect(() => {
    if (location === firstLocation.current) return;
    firstLocation.current = '';
    window.scrollTo(0, 0);
    const main = mainRef.current;
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  }, [location]);

  return (
    <div className="shell">
      <WindowTitle path={props.path} />
      <a className="skip-link" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>
        Skip to content
      </a>
      <header className="topbar">
        <a className="brand" href="#/">
          <img src="./favicon.svg" alt="" width="22" height="22" />
          <span className="brand-name">Cronbeat</span>
        </a>
        <nav aria-label="Main" className="nav">
          {sections.map((section) => (
            <a
              key={section.path}
              href={`#${section.path}`}
              aria-current={isCurrent(section.path, props.path) ? 'page' : undefined}
            >
              {section.label}
              {section.path === '/notifications' ? <UnreadBadge /> : null}
            </a>
          ))}
        </nav>
        <div className="topbar-end">
          <span className={`live live-${liveState}`} role="status" title={liveState === 'live' ? 'Changes appear as they happen' : 'Refreshing every few seconds until the live connection is back'}>
            <span className="badge-dot" aria-hidden="true" />
            {liveLabels[liveState]}
          </span>
          {desktop ? null : (
            <button type="button" className="button button-quiet" onClick={signOut}>
              Sign out
            </button>
          )}
        </div>
      </header>
      <AgentDownBanner />
      <main id="main" tabIndex={-1} className={agentDown ? 'content content-stale' : 'content'} ref={mainRef} aria-busy={agentDown || undefined}>
        <ReadOnlyNote />
        {props.children}
      </main>
    </div>
  );
}

/** For a read-only key, one quiet line on every screen saying why nothing can be changed. */
function ReadOnlyNote() {
  if (useCanEdit()) return null;
  return (
    <p className="read-only-note" role="note" data-testid="read-only-note">
      Read-only key: you can watch, not change.
    </p>
  );
}

/** "Monitors · Cronbeat" for "/monitors/12". */
export function screenTitle(path: string): string {
  const section = path.split('/')[1] ?? '';
  return section ? `${section[0]!.toUpperCase()}${section.slice(1).replace(/-/g, ' ')} · Cronbeat` : 'Cronbeat';
}

/** The number of unread notifications next to "Notifications" in the navigation; nothing when none. */
function UnreadBadge() {
  const unread = useUnreadCount();
  if (!unread) return null;
  return (
    // Hidden from the link's name (it stays "Notifications"); the window title says the count in words.
    <span className="nav-count" data-testid="unread-count" aria-hidden="true" title={`${unread} unread`}>
      {unread > 99 ? '99+' : unread}
    </span>
  );
}

/** "(2 failed, 3 unread) " before the screen's title; empty when neither. */
export function titleCounts(failed: number, unread: number): string {
  const parts = [failed ? `${failed} failed` : '', unread ? `${unread} unread` : ''].filter(Boolean);
  return parts.length ? `(${parts.join(', ')}) ` : '';
}

function countFailed(monitors: Monitor[]): number {
  let failed = 0;
  for (const m of monitors) if (monitorStatus(m) === 'failed') failed++;
  return failed;
}

/** Keeps the window title, with the failed monitors and unread notifications first so a background tab shows them. */
function WindowTitle(props: { path: string }) {
  const { api } = useApp();
  // The monitors screen's own cache entry: no second request for the list.
  const failed = useQuery({ ...queries.monitors(api), select: countFailed }).data ?? 0;
  const unread = useUnreadCount() ?? 0;
  useEffect(() => {
    document.title = `${titleCounts(failed, unread)}${screenTitle(props.path)}`;
  }, [failed, unread, props.path]);
  return null;
}

export function PageHeader(props: { title: string; subtitle?: ReactNode; actions?: ReactNode; back?: { href: string; label: string } }) {
  return (
    <div className="page-header">
      <div>
        {props.back ? (
          <a className="back-link" href={props.back.href}>
            ← {props.back.label}
          </a>
        ) : null}
        <h1>{props.title}</h1>
        {props.subtitle ? <div className="muted">{props.subtitle}</div> : null}
      </div>
      {props.actions ? <div className="page-actions">{props.actions}</div> : null}
    </div>
  );
}
