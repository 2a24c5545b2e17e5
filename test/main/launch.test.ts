import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseLaunch, electronFailedAtStart, fallbackMessage, hasDisplay, isStale } from '../../main/launch/decision';
import { BUILD_STEPS } from '../../main/launch/builds';

const electron = '/repo/node_modules/electron/dist/electron';

describe("npm start's choice", () => {
  it.each([
    ['Linux with X11', 'linux', { DISPLAY: ':0' }, electron, 'electron'],
    ['Linux with Wayland', 'linux', { WAYLAND_DISPLAY: 'wayland-0' }, electron, 'electron'],
    ['macOS', 'darwin', {}, electron, 'electron'],
    ['Windows', 'win32', {}, electron, 'electron'],
    ['Linux without a display', 'linux', {}, electron, 'headless'],
    ['Linux with an empty DISPLAY', 'linux', { DISPLAY: '' }, electron, 'headless'],
    ['no Electron binary', 'linux', { DISPLAY: ':0' }, null, 'headless'],
    ['no Electron binary on macOS', 'darwin', {}, null, 'headless'],
    ['asked for headless', 'darwin', { CRONBEAT_HEADLESS: '1' }, electron, 'headless'],
  ] as const)('%s → %s', (_label, platform, env, binary, mode) => {
    const plan = chooseLaunch({ platform, env, electronBinary: binary });
    expect(plan.mode).toBe(mode);
    if (plan.mode === 'electron') expect(plan.binary).toBe(electron);
  });

  it('says why in one line', () => {
    const plan = chooseLaunch({ platform: 'linux', env: {}, electronBinary: null });
    expect(plan).toEqual({ mode: 'headless', reason: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' });
    const line = fallbackMessage(plan.mode === 'headless' ? plan.reason : '');
    expect(line).not.toContain('\n');
    expect(line).toMatch(/^Cronbeat: the desktop app cannot start because there is no display .*headless agent/);
    expect(hasDisplay('freebsd', { DISPLAY: ':1' })).toBe(true);
  });

  it('falls back when Electron dies at once, not when the user quits it later', () => {
    expect(electronFailedAtStart(1, null, 800)).toBe(true);
    expect(electronFailedAtStart(127, null, 50)).toBe(true);
    expect(electronFailedAtStart(0, null, 800)).toBe(false);
    expect(electronFailedAtStart(1, null, 60_000)).toBe(false);
    expect(electronFailedAtStart(null, 'SIGINT', 800)).toBe(false);
  });
});

describe('stale builds', () => {
  it('rebuilds a missing or older output', () => {
    expect(isStale(null, 10)).toBe(true);
    expect(isStale(5, 10)).toBe(true);
    expect(isStale(10, 10)).toBe(false);
    expect(isStale(20, 10)).toBe(false);
  });

  it('knows every build step npm start may need, the desktop one only with a display', () => {
    expect(BUILD_STEPS.map((s) => [s.script, s.desktopOnly])).toEqual([
      ['build:agent', false],
      ['build:renderer', false],
      ['build:main', true],
    ]);
    expect(BUILD_STEPS.find((s) => s.script === 'build:main')!.sources).toContain('agent');
  });

  it('rebuilds the dashboard when anything it imports changes, the agent\'s contract and rules included', () => {
    const root = resolve(__dirname, '../..');
    const sources = BUILD_STEPS.find((s) => s.script === 'build:renderer')!.sources;
    const covered = (file: string) => sources.some((source) => file === source || file.startsWith(`${source}/`));
    const outside = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name)) {
          for (const [, spec] of readFileSync(path, 'utf8').matchAll(/from '(\.[^']+)'/g)) outside.add(relative(root, resolve(dirname(path), spec)));
        }
      }
    };
    walk(join(root, 'renderer', 'src'));
    expect([...outside].filter((file) => !covered(file))).toEqual([]);
  });
});
