import { describe, expect, it } from 'vitest';
import { decideNavigation, externalLinkToOpen, isAppUrl, isPermissionGranted, isTrustedSender } from '../../main/security';

const origin = 'http://127.0.0.1:8787';

describe('navigation', () => {
  it.each([
    ['http://127.0.0.1:8787/monitors/3', { action: 'allow' }],
    ['http://127.0.0.1:8787/', { action: 'allow' }],
    ['https://example.com/docs?a=1', { action: 'open-external', url: 'https://example.com/docs?a=1' }],
    ['http://example.com', { action: 'open-external', url: 'http://example.com/' }],
    ['http://127.0.0.1:9999/', { action: 'open-external', url: 'http://127.0.0.1:9999/' }],
    ['http://localhost:8787/', { action: 'open-external', url: 'http://localhost:8787/' }],
    ['https://127.0.0.1:8787/', { action: 'open-external', url: 'https://127.0.0.1:8787/' }],
    ['file:///etc/passwd', { action: 'deny' }],
    ['javascript:alert(1)', { action: 'deny' }],
    ['data:text/html,<script>alert(1)</script>', { action: 'deny' }],
    ['smb://server/share', { action: 'deny' }],
    ['https://user:secret@example.com/', { action: 'deny' }],
    ['not a url', { action: 'deny' }],
    [`https://example.com/${'a'.repeat(3000)}`, { action: 'deny' }],
  ])('%s', (url, expected) => {
    expect(decideNavigation(url, origin)).toEqual(expected);
  });

  it('compares whole origins, not prefixes', () => {
    expect(isAppUrl('http://127.0.0.1:87870/', origin)).toBe(false);
    expect(isAppUrl('http://127.0.0.1:8787.evil.com/', origin)).toBe(false);
    expect(isAppUrl(undefined, origin)).toBe(false);
    expect(externalLinkToOpen('mailto:admin@example.com')).toBeNull();
  });
});

describe('permissions', () => {
  it('denies everything but writing to the clipboard from the app itself', () => {
    expect(isPermissionGranted('clipboard-sanitized-write', `${origin}/monitors/1`, origin)).toBe(true);
    expect(isPermissionGranted('clipboard-sanitized-write', 'https://evil.example/', origin)).toBe(false);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'unknown']) {
      expect(isPermissionGranted(permission, `${origin}/`, origin)).toBe(false);
    }
  });
});

describe('IPC sender check', () => {
  it('trusts only the top frame of the app origin', () => {
    expect(isTrustedSender({ url: `${origin}/monitors`, parent: null }, origin)).toBe(true);
    expect(isTrustedSender({ url: `${origin}/frame`, parent: {} }, origin)).toBe(false);
    expect(isTrustedSender({ url: 'https://evil.example/', parent: null }, origin)).toBe(false);
    expect(isTrustedSender({ url: 'file:///tmp/x.html', parent: null }, origin)).toBe(false);
    expect(isTrustedSender(null, origin)).toBe(false);
  });
});
