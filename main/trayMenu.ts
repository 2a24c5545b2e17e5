import type { MenuItemConstructorOptions } from 'electron';
import type { TrayModel } from './trayModel';
import { activeMuteLabel, isMuted, type MuteChoice } from './mute';
import { terminalText } from '../agent/domain/text/controlCharacters';

/** What the tray menu can ask the shell to do. */
export interface TrayMenuActions {
  open(route: string): void;
  mute(choice: MuteChoice): void;
  setStartAtLogin(enabled: boolean): void;
  /** Listen on every address (servers can reach the agent) or on this machine only; the app restarts. */
  setReachableFromServers(enabled: boolean): void;
  /** Pauses a monitor on the agent shown: until resumed (null) or until a time (ms). */
  pause?(monitorId: number, until: number | null): void;
  /** Runs the agent inside the app again, instead of connecting to another (the app restarts). */
  runAgentHere?(): void;
  /** Shows where to connect to an agent on another machine (the dashboard's settings). */
  connectToAgent?(): void;
  /** Connects again to the agent saved in the settings (the app restarts). */
  useSavedAgent?(): void;
  quit(): void;
}

export interface TrayMenuInput {
  model: TrayModel;
  /** The agent's address, shown so job scripts can be pointed at a port other than 8787. */
  agentUrl: string;
  mutedUntil: number | null;
  startAtLogin: boolean;
  reachableFromServers: boolean;
  now: number;
  /** Read when an entry is clicked: the menu stays as built while nothing it shows changes, for hours. */
  clock?: () => number;
  /** Pause entries for failed monitors (an agent this app may change). */
  canPause?: boolean;
  /** The agent shown: the app's own (default) or one on another machine, and one saved to connect to. */
  agent?: { mode: 'local' | 'remote'; savedRemote: string | null };
}

const HOUR_MS = 3_600_000;

/**
 * A name as a menu item shows it: Electron reads a single & as the mnemonic mark (and drops it),
 * and a name from an older agent may hold control characters, which are written out instead.
 */
export function menuLabel(name: string): string {
  return terminalText(name, { oneLine: true }).replace(/&/g, '&&');
}

/** A failed monitor: opens its page, or, where pausing is offered, a submenu to open or pause it. */
function failedItem(entry: TrayModel['failed'][number], input: TrayMenuInput, actions: TrayMenuActions): MenuItemConstructorOptions {
  const { monitorId } = entry;
  const label = menuLabel(entry.label);
  if (!input.canPause || !actions.pause || monitorId === undefined) return { label, click: () => actions.open(entry.route) };
  const pause = actions.pause;
  return {
    label,
    submenu: [
      { label: 'Open', click: () => actions.open(entry.route) },
      { label: 'Pause for 1 hour', click: () => pause(monitorId, (input.clock ?? Date.now)() + HOUR_MS) },
      { label: 'Pause until resumed', click: () => pause(monitorId, null) },
    ],
  };
}

/** Which agent the app shows: its own, or one on another machine (both switches restart the app). */
function agentMenu(input: TrayMenuInput, actions: TrayMenuActions): MenuItemConstructorOptions[] {
  if (!input.agent || !actions.runAgentHere || !actions.connectToAgent) return [];
  const { mode, savedRemote } = input.agent;
  const runHere = actions.runAgentHere;
  const useSaved = actions.useSavedAgent;
  return [
    {
      label: 'Agent',
      submenu: [
        { label: 'Run the agent here', type: 'radio', checked: mode === 'local', click: () => mode !== 'local' && runHere() },
        ...(savedRemote && useSaved
          ? [{ label: `Connect to ${savedRemote}`, type: 'radio' as const, checked: mode === 'remote', click: () => mode !== 'remote' && useSaved() }]
          : []),
        { type: 'separator' },
        { label: 'Connect to an agent…', click: () => actions.connectToAgent?.() },
      ],
    },
  ];
}

/** The whole tray menu, rebuilt from scratch on every state change. */
export function trayMenuTemplate(input: TrayMenuInput, actions: TrayMenuActions): MenuItemConstructorOptions[] {
  const muted = isMuted(input.mutedUntil, input.now);
  const muteStatus = activeMuteLabel(input.mutedUntil, input.now);
  const failed: MenuItemConstructorOptions[] =
    input.model.failed.length === 0
      ? []
      : [
          { type: 'separator' },
          { label: 'Failed', enabled: false },
          ...input.model.failed.map((entry) => failedItem(entry, input, actions)),
        ];
  return [
    { label: 'Open Cronbeat', click: () => actions.open('/') },
    { label: menuLabel(input.model.tooltip.replace(/^Cronbeat: /, '')), enabled: false },
    ...failed,
    { type: 'separator' },
    {
      label: 'Mute popups',
      submenu: [
        ...(muteStatus ? [{ label: muteStatus, enabled: false }, { type: 'separator' as const }] : []),
        { label: 'For 1 hour', click: () => actions.mute('hour') },
        { label: 'Until tomorrow, 08:00', click: () => actions.mute('tomorrow') },
        { label: 'Off', enabled: muted, click: () => actions.mute('off') },
      ],
    },
    {
      label: 'Start at login',
      type: 'checkbox',
      checked: input.startAtLogin,
      click: (item) => actions.setStartAtLogin(item.checked),
    },
    // An agent on another machine is reached as it was set up there.
    ...(input.agent?.mode === 'remote'
      ? []
      : [
          {
            label: 'Let servers reach this agent',
            type: 'checkbox' as const,
            checked: input.reachableFromServers,
            toolTip: 'Listen on every address of this machine, so `cronbeat crontab watch` on your servers can report (restarts Cronbeat)',
            click: (item: { checked: boolean }) => actions.setReachableFromServers(item.checked),
          },
        ]),
    { type: 'separator' },
    { label: `Agent at ${input.agentUrl}`, enabled: false },
    ...agentMenu(input, actions),
    { label: 'Quit Cronbeat', click: () => actions.quit() },
  ];
}
