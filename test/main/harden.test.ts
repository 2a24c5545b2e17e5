import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./electronMock'));
const electron = await import('./electronMock');
const { guardSession, guardWebContents } = await import('../../main/harden');

const origin = 'http://127.0.0.1:8787';

function navigate(contents: InstanceType<typeof electron.FakeWebContents>, eventName: string, url: string): boolean {
  let prevented = false;
  contents.emit(eventName, { url, preventDefault: () => (prevented = true) });
  return prevented;
}

describe('web contents guards', () => {
  let contents: InstanceType<typeof electron.FakeWebContents>;
  beforeEach(() => {
    contents = new electron.FakeWebContents();
    electron.shell.openExternal.mockClear();
    guardWebContents(contents as never, origin, vi.fn());
  });

  it('lets the dashboard navigate within its own origin', () => {
    expect(navigate(contents, 'will-navigate', `${origin}/monitors/4`)).toBe(false);
    expect(electron.shell.openExternal).not.toHaveBeenCalled();
  });

  it('sends other http(s) links to the system browser instead', () => {
    expect(navigate(contents, 'will-navigate', 'https://crontab.guru/#0_2_*_*_*')).toBe(true);
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://crontab.guru/#0_2_*_*_*');
  });

  it('refuses other schemes outright', () => {
    expect(navigate(contents, 'will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate(contents, 'will-navigate', 'javascript:alert(1)')).toBe(true);
    expect(electron.shell.openExternal).not.toHaveBeenCalled();
  });

  it('refuses redirects away from the app', () => {
    expect(navigate(contents, 'will-redirect', 'https://evil.example/')).toBe(true);
    expect(navigate(contents, 'will-redirect', `${origin}/`)).toBe(false);
  });

  it('never opens a new window: app links load in place, http(s) goes to the browser', () => {
    const open = contents.windowOpenHandler!;
    expect(open({ url: `${origin}/notifications` })).toEqual({ action: 'deny' });
    expect(contents.loadURL).toHaveBeenCalledWith(`${origin}/notifications`);
    expect(open({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://example.com/');
    expect(open({ url: 'ftp://example.com/' })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(1);
    expect(electron.createdWindows).toHaveLength(0);
  });

  it('refuses webviews', () => {
    expect(navigate(contents, 'will-attach-webview', '')).toBe(true);
  });
});

describe('session guards', () => {
  it('answers permission requests and checks with a refusal, clipboard writes from the app aside', () => {
    const ses = electron.session.defaultSession;
    guardSession(ses as never, origin);
    const request = ses.setPermissionRequestHandler.mock.calls[0][0] as (...args: unknown[]) => void;
    const check = ses.setPermissionCheckHandler.mock.calls[0][0] as (...args: unknown[]) => boolean;
    const answer = (permission: string, url: string) => {
      const callback = vi.fn();
      request(null, permission, callback, { requestingUrl: url });
      return callback.mock.calls[0][0];
    };
    expect(answer('media', `${origin}/`)).toBe(false);
    expect(answer('notifications', `${origin}/`)).toBe(false);
    expect(answer('geolocation', 'https://evil.example/')).toBe(false);
    expect(answer('clipboard-sanitized-write', `${origin}/monitors/1`)).toBe(true);
    expect(answer('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(check(null, 'media', origin, {})).toBe(false);
    expect(check(null, 'clipboard-sanitized-write', origin, {})).toBe(true);
  });
});
