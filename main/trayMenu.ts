import type { MenuItemConstructorOptions } from 'electron';
import type { TrayModel } from './trayModel';
import { activeMuteLabel, isMuted, type MuteChoice } from './mute';

/** What the tray menu can ask the shell to do. */
export interface TrayMenuActions {
  open(route: string): void;
  mute(choice: MuteChoice): void;
  setStartAtLogin(enabled: boolean): void;
  /** Listen on every address (servers can reach the agent) or on this machine only; the app restarts. */
  setReachableFromServers(enabled: boolean): void;
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
          ...input.model.failed.map((entry) => ({ label: entry.label, click: () => actions.open(entry.route) })),
        ];
  return [
    { label: 'Open Cronbeat', click: () => actions.open('/') },
    { label: input.model.tooltip.replace(/^Cronbeat: /, ''), enabled: false },
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
    {
      label: 'Let servers reach this agent',
      type: 'checkbox',
      checked: input.reachableFromServers,
      toolTip: 'Listen on every address of this machine, so `cronbeat crontab watch` on your servers can report (restarts Cronbeat)',
      click: (item) => actions.setReachableFromServers(item.checked),
    },
    { type: 'separator' },
    { label: `Agent at ${input.agentUrl}`, enabled: false },
    { label: 'Quit Cronbeat', click: () => actions.quit() },
  ];
}
