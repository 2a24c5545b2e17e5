import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, saveSettings } from '../../main/settings';
import { trayIsMissing } from '../../main/trayHint';

const DEFAULTS = { mutedUntil: null, trayHintShown: false, reachableFromServers: false, allowedHosts: [], agentMode: 'local', remoteAgent: null };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cronbeat-settings-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('shell settings', () => {
  it('start from defaults and survive a restart', () => {
    expect(loadSettings(dir)).toEqual(DEFAULTS);
    const changed = {
      mutedUntil: 1_800_000_000_000,
      trayHintShown: true,
      reachableFromServers: true,
      allowedHosts: ['laptop.lan'],
      agentMode: 'remote' as const,
      remoteAgent: { url: 'https://cronbeat.example.com', key: 'cb_key', access: 'full' as const },
    };
    saveSettings(dir, changed);
    expect(loadSettings(dir)).toEqual(changed);
  });

  it('fall back to defaults when the file is damaged or holds the wrong types', () => {
    writeFileSync(join(dir, 'settings.json'), '{"mutedUntil": ');
    expect(loadSettings(dir)).toEqual(DEFAULTS);
    writeFileSync(join(dir, 'settings.json'), '{"mutedUntil": "soon", "trayHintShown": 1, "reachableFromServers": "yes", "allowedHosts": "x"}');
    expect(loadSettings(dir)).toEqual(DEFAULTS);
  });

  it("keep a remote agent's sub-path (a proxy serving it at https://example.com/cronbeat), without a trailing slash, query or fragment", () => {
    writeFileSync(join(dir, 'settings.json'), '{"agentMode": "remote", "remoteAgent": {"url": "https://example.com/cronbeat/?x=1#/monitors", "key": "k", "access": "full"}}');
    expect(loadSettings(dir).remoteAgent).toEqual({ url: 'https://example.com/cronbeat', key: 'k', access: 'full' });
  });

  it('show the app\'s own agent unless a remote one is saved and chosen', () => {
    writeFileSync(join(dir, 'settings.json'), '{"agentMode": "remote"}');
    expect(loadSettings(dir).agentMode).toBe('local');
    writeFileSync(join(dir, 'settings.json'), '{"agentMode": "remote", "remoteAgent": {"url": "file:///etc", "key": "k"}}');
    expect(loadSettings(dir)).toMatchObject({ agentMode: 'local', remoteAgent: null });
    writeFileSync(join(dir, 'settings.json'), '{"agentMode": "local", "remoteAgent": {"url": "http://backup-box:8787", "key": "k", "access": "root"}}');
    expect(loadSettings(dir)).toMatchObject({ agentMode: 'local', remoteAgent: { url: 'http://backup-box:8787', key: 'k', access: 'read-only' } });
  });
});

describe('the missing-tray hint', () => {
  it.each([
    ['linux', 'GNOME', false, true],
    ['linux', 'ubuntu:GNOME', false, true],
    ['linux', 'ubuntu:GNOME', true, false],
    ['linux', 'ubuntu:GNOME', null, false],
    ['linux', 'KDE', false, false],
    ['linux', undefined, false, false],
    ['darwin', 'GNOME', false, false],
  ] as const)('%s %s watcher=%s → %s', (platform, desktop, watcher, missing) => {
    expect(trayIsMissing(platform, desktop, watcher)).toBe(missing);
  });
});
