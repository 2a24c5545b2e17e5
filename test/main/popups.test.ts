import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./electronMock'));
const { FakeNotification } = await import('./electronMock');
const { electronNotifier } = await import('../../main/popups');

beforeEach(() => {
  FakeNotification.created = [];
  FakeNotification.supported = true;
});

describe('popups through Electron notifications', () => {
  it('shows one native notification per popup', () => {
    const notifier = electronNotifier({ isMuted: () => false, openRoute: vi.fn(), icon: '/icon.png', log: vi.fn() });
    notifier.show({ title: 'backup failed', body: 'No pulse within 5 min', route: '/monitors/7' });
    expect(FakeNotification.created).toHaveLength(1);
    expect(FakeNotification.created[0].options).toEqual({ title: 'backup failed', body: 'No pulse within 5 min', icon: '/icon.png' });
    expect(FakeNotification.created[0].shown).toBe(true);
  });

  it('shows markup in a popup as text on Linux (its notification servers read the body as markup) and writes control characters out', () => {
    const body = 'job said: <a href="https://evil.example/">fix it</a> & x < y';
    const title = 'backup\u001b[2J\u202efailed';
    electronNotifier({ isMuted: () => false, openRoute: vi.fn(), log: vi.fn(), platform: 'linux' }).show({ title, body: `${body}\n\u0007next` });
    electronNotifier({ isMuted: () => false, openRoute: vi.fn(), log: vi.fn(), platform: 'win32' }).show({ title, body });
    const [linux, windows] = FakeNotification.created.map((n) => n.options);
    expect(linux.title).toBe('backup\\u001b[2J\\u202efailed');
    expect(linux.body).toBe('job said: &lt;a href="https://evil.example/"&gt;fix it&lt;/a&gt; &amp; x &lt; y\n\\u0007next');
    expect(windows.title).toBe('backup\\u001b[2J\\u202efailed');
    expect(windows.body).toBe(body);
  });

  it('opens the popup’s route when clicked, the overview when it has none', () => {
    const openRoute = vi.fn();
    const notifier = electronNotifier({ isMuted: () => false, openRoute, log: vi.fn() });
    notifier.show({ title: 'a', body: 'b', route: '/monitors/7' });
    notifier.show({ title: '5 monitors failed', body: 'backup, …' });
    FakeNotification.created[0].emit('click');
    FakeNotification.created[1].emit('click');
    expect(openRoute.mock.calls).toEqual([['/monitors/7'], ['/']]);
  });

  it('holds popups while muted', () => {
    let muted = true;
    const notifier = electronNotifier({ isMuted: () => muted, openRoute: vi.fn(), log: vi.fn() });
    notifier.show({ title: 'a', body: 'b' });
    expect(FakeNotification.created).toHaveLength(0);
    muted = false;
    notifier.show({ title: 'a', body: 'b' });
    expect(FakeNotification.created).toHaveLength(1);
  });

  it('says once that the desktop has no notification service, and never throws', () => {
    FakeNotification.supported = false;
    const log = vi.fn();
    const notifier = electronNotifier({ isMuted: () => false, openRoute: vi.fn(), log });
    notifier.show({ title: 'a', body: 'b' });
    notifier.show({ title: 'c', body: 'd' });
    expect(log).toHaveBeenCalledTimes(1);
    expect(FakeNotification.created).toHaveLength(0);

    FakeNotification.supported = true;
    const failing = electronNotifier({ isMuted: () => { throw new Error('settings unreadable'); }, openRoute: vi.fn(), log });
    expect(() => failing.show({ title: 'a', body: 'b' })).not.toThrow();
    expect(log).toHaveBeenLastCalledWith(expect.stringContaining('settings unreadable'));
  });
});
