import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';

vi.mock('electron', () => import('./electronMock'));
const { FakeTray } = await import('./electronMock');
const { TrayIcon } = await import('../../main/tray');
const { trayMenuTemplate } = await import('../../main/trayMenu');
const { trayModel } = await import('../../main/trayModel');

const actions = () => ({ open: vi.fn(), mute: vi.fn(), setStartAtLogin: vi.fn(), setReachableFromServers: vi.fn(), quit: vi.fn() });
const now = Date.parse('2026-11-21T15:00:00Z');
const model = (statuses: Array<'monitoring' | 'running' | 'failed'>) =>
  trayModel({
    monitors: statuses.map((status, i) => ({ id: i + 1, name: `job ${i + 1}`, status })),
    expiringCertificates: 0,
    failedCertificates: 0,
  });
const input = (statuses: Array<'monitoring' | 'running' | 'failed'>, extra = {}) => ({
  model: model(statuses),
  agentUrl: 'http://127.0.0.1:8787',
  mutedUntil: null,
  startAtLogin: false,
  reachableFromServers: false,
  now,
  ...extra,
});
const labels = (items: MenuItemConstructorOptions[]) => items.map((i) => i.label ?? `(${i.type})`);
const find = (items: MenuItemConstructorOptions[], label: string) => items.find((i) => i.label === label)!;
const click = (item: MenuItemConstructorOptions, checked?: boolean) =>
  (item.click as (item: unknown) => void)({ checked: checked ?? item.checked });

describe('the tray menu', () => {
  it('offers Open, the counts, mute, start at login, reach from servers, the agent address and Quit', () => {
    const menu = trayMenuTemplate(input(['monitoring']), actions());
    expect(labels(menu)).toEqual([
      'Open Cronbeat',
      '1 fine',
      '(separator)',
      'Mute popups',
      'Start at login',
      'Let servers reach this agent',
      '(separator)',
      'Agent at http://127.0.0.1:8787',
      'Quit Cronbeat',
    ]);
  });

  it('lists the failed monitors by name, each opening its page', () => {
    const a = actions();
    const menu = trayMenuTemplate(input(['failed', 'monitoring', 'failed']), a);
    expect(labels(menu).slice(0, 6)).toEqual(['Open Cronbeat', '2 failed, 1 fine', '(separator)', 'Failed', 'job 1', 'job 3']);
    click(find(menu, 'job 3'));
    click(find(menu, 'Open Cronbeat'));
    expect(a.open.mock.calls).toEqual([['/monitors/3'], ['/']]);
  });

  it('shows a failed monitor by its name as written: an & is no menu mnemonic, a control character is written out', () => {
    const failed = (name: string) => ({ id: 1, name, status: 'failed' as const });
    for (const canPause of [false, true]) {
      const menu = trayMenuTemplate(
        input([], { canPause, model: trayModel({ monitors: [failed('Backup & restore\u202e\u001b')], expiringCertificates: 0, failedCertificates: 0 }) }),
        { ...actions(), pause: vi.fn() },
      );
      expect(labels(menu)).toContain('Backup && restore\\u202e\\u001b');
    }
  });

  it("shows the summary line as written too: a remote agent's or a proxy's words in it are no mnemonic", () => {
    const model = { state: 'failed' as const, tooltip: 'Cronbeat on backup-box cannot read its monitors: 502 Bad Gateway & Co', failed: [] };
    expect(labels(trayMenuTemplate(input([], { model }), actions()))).toContain('Cronbeat on backup-box cannot read its monitors: 502 Bad Gateway && Co');
  });

  it('offers to open or pause a failed monitor where the agent lets this app change it', () => {
    const a = { ...actions(), pause: vi.fn() };
    const menu = trayMenuTemplate(input(['failed', 'monitoring'], { canPause: true, clock: () => now }), a);
    const entry = find(menu, 'job 1').submenu as MenuItemConstructorOptions[];
    expect(labels(entry)).toEqual(['Open', 'Pause for 1 hour', 'Pause until resumed']);
    click(entry[0]);
    click(entry[1]);
    click(entry[2]);
    expect(a.open.mock.calls).toEqual([['/monitors/1']]);
    expect(a.pause.mock.calls).toEqual([[1, now + 3_600_000], [1, null]]);
  });

  it('switches between the agent run here and one on another machine', () => {
    const a = { ...actions(), runAgentHere: vi.fn(), connectToAgent: vi.fn(), useSavedAgent: vi.fn() };
    const local = trayMenuTemplate(input(['monitoring'], { agent: { mode: 'local', savedRemote: 'backup-box' } }), a);
    const agent = find(local, 'Agent').submenu as MenuItemConstructorOptions[];
    expect(agent.map((i) => [i.label ?? `(${i.type})`, i.checked])).toEqual([
      ['Run the agent here', true],
      ['Connect to backup-box', false],
      ['(separator)', undefined],
      ['Connect to an agent…', undefined],
    ]);
    click(agent[0]); // already here: nothing to do
    click(agent[1]);
    click(agent[3]);
    expect(a.runAgentHere).not.toHaveBeenCalled();
    expect(a.useSavedAgent).toHaveBeenCalledTimes(1);
    expect(a.connectToAgent).toHaveBeenCalledTimes(1);

    const remote = trayMenuTemplate(input(['monitoring'], { agent: { mode: 'remote', savedRemote: 'backup-box' } }), a);
    expect(labels(remote)).not.toContain('Let servers reach this agent');
    click((find(remote, 'Agent').submenu as MenuItemConstructorOptions[])[0]);
    expect(a.runAgentHere).toHaveBeenCalledTimes(1);
  });

  it('mutes for an hour, until tomorrow, or turns the mute off, and says until when', () => {
    const a = actions();
    const unmuted = find(trayMenuTemplate(input(['monitoring']), a), 'Mute popups').submenu as MenuItemConstructorOptions[];
    expect(labels(unmuted)).toEqual(['For 1 hour', 'Until tomorrow, 08:00', 'Off']);
    expect(find(unmuted, 'Off').enabled).toBe(false);
    click(find(unmuted, 'For 1 hour'));
    click(find(unmuted, 'Until tomorrow, 08:00'));

    const muted = find(trayMenuTemplate(input(['monitoring'], { mutedUntil: now + 3_600_000 }), a), 'Mute popups')
      .submenu as MenuItemConstructorOptions[];
    expect(muted[0].label).toMatch(/^Popups muted until \d\d:\d\d$/);
    expect(find(muted, 'Off').enabled).toBe(true);
    click(find(muted, 'Off'));
    expect(a.mute.mock.calls).toEqual([['hour'], ['tomorrow'], ['off']]);
  });

  it('toggles start at login and quits', () => {
    const a = actions();
    const menu = trayMenuTemplate(input(['monitoring'], { startAtLogin: true }), a);
    const item = find(menu, 'Start at login');
    expect(item).toMatchObject({ type: 'checkbox', checked: true });
    click(item, false);
    click(find(menu, 'Quit Cronbeat'));
    expect(a.setStartAtLogin).toHaveBeenCalledWith(false);
    expect(a.quit).toHaveBeenCalledTimes(1);
  });

  it('lets servers reach the agent, or keeps it to this machine', () => {
    const a = actions();
    const closed = find(trayMenuTemplate(input(['monitoring']), a), 'Let servers reach this agent');
    expect(closed).toMatchObject({ type: 'checkbox', checked: false });
    click(closed, true);
    const open = find(trayMenuTemplate(input(['monitoring'], { reachableFromServers: true }), a), 'Let servers reach this agent');
    expect(open.checked).toBe(true);
    click(open, false);
    expect(a.setReachableFromServers.mock.calls).toEqual([[true], [false]]);
  });
});

describe('the tray icon', () => {
  beforeEach(() => {
    FakeTray.created = [];
  });

  it('switches icon, tooltip and menu with the state, and redraws nothing when nothing changed', () => {
    const icon = new TrayIcon('/assets', actions(), vi.fn());
    const tray = FakeTray.created[0];
    icon.render(input(['monitoring']));
    expect(tray.image).toEqual({ path: expect.stringMatching(/tray-ok/) });
    expect(tray.tooltip).toBe('Cronbeat: 1 fine');

    icon.render(input(['running']));
    expect(tray.image).toEqual({ path: expect.stringMatching(/tray-busy/) });

    icon.render(input(['failed']));
    expect(tray.image).toEqual({ path: expect.stringMatching(/tray-failed/) });
    expect(tray.tooltip).toBe('Cronbeat: 1 failed');
    expect(labels(tray.menu!.template as MenuItemConstructorOptions[])).toContain('job 1');

    const menus = tray.setContextMenu.mock.calls.length;
    icon.render(input(['failed'], { now: now + 1000 }));
    expect(tray.setContextMenu.mock.calls.length).toBe(menus);
  });

  it('pauses for an hour from the click, not from when the unchanged menu was last built', () => {
    const pause = vi.fn();
    const icon = new TrayIcon('/assets', { ...actions(), pause }, vi.fn());
    const tray = FakeTray.created[0];
    let clock = now;
    icon.render(input(['failed'], { canPause: true, clock: () => clock }));
    clock = now + 6 * 3_600_000;
    icon.render(input(['failed'], { canPause: true, now: clock, clock: () => clock }));
    const entry = find(tray.menu!.template as MenuItemConstructorOptions[], 'job 1').submenu as MenuItemConstructorOptions[];
    click(find(entry, 'Pause for 1 hour'));
    expect(pause).toHaveBeenCalledWith(1, clock + 3_600_000);
  });

  it('rebuilds an unchanged menu when asked: a checkbox ticks itself on click, even when the change it asked for failed', () => {
    const icon = new TrayIcon('/assets', actions(), vi.fn());
    const tray = FakeTray.created[0];
    icon.render(input(['monitoring']));
    const menus = tray.setContextMenu.mock.calls.length;
    icon.invalidate();
    icon.render(input(['monitoring']));
    expect(tray.setContextMenu.mock.calls.length).toBe(menus + 1);
  });

  it('rebuilds the menu when a mute runs out', () => {
    const icon = new TrayIcon('/assets', actions(), vi.fn());
    const tray = FakeTray.created[0];
    icon.render(input(['monitoring'], { mutedUntil: now + 1000 }));
    const menus = tray.setContextMenu.mock.calls.length;
    icon.render(input(['monitoring'], { mutedUntil: now + 1000, now: now + 1000 }));
    expect(tray.setContextMenu.mock.calls.length).toBe(menus + 1);
  });
});
