/**
 * The whole main process (main/main.ts) when its agent cannot start, with only Electron mocked:
 * one dialog saying why and what to do, then the app exits, never a stack trace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lockDataFolder } from '../../agent/db/lock';
import { until } from '../helpers/until';

vi.mock('electron', () => import('./electronMock'));

const scratch = mkdtempSync(join(tmpdir(), 'cronbeat-desktop-fails-'));
const previousDataDir = process.env.CRONBEAT_DATA_DIR;

/** A fresh main process and Electron mock (main.ts does its work when imported). */
async function launch(): Promise<typeof import('./electronMock')> {
  vi.resetModules();
  await import('../../main/main');
  // The mock main.ts was given (vi.mock's module, not a second copy of the file).
  const electron = (await import('electron')) as unknown as typeof import('./electronMock');
  await until(() => electron.app.exit.mock.calls.length > 0 || electron.createdWindows.length > 0, 'the app to start or give up', 10_000);
  return electron;
}

beforeEach(() => {
  delete process.env.CRONBEAT_DATA_DIR;
});
afterEach(() => {
  process.env.CRONBEAT_DATA_DIR = previousDataDir;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the desktop app when its agent cannot start', () => {
  it('says the data folder is a file, and exits', async () => {
    const file = join(scratch, 'not-a-folder');
    writeFileSync(file, '');
    process.env.CRONBEAT_DATA_DIR = file;
    const electron = await launch();
    expect(electron.dialog.showErrorBox).toHaveBeenCalledWith('Cronbeat could not start', expect.stringMatching(/is a file, not a folder.*CRONBEAT_DATA_DIR/));
    expect(electron.app.exit).toHaveBeenCalledWith(1);
    expect(electron.createdWindows).toEqual([]);
  });

  it('says another agent holds the data folder, and exits without starting a second one', async () => {
    const dir = mkdtempSync(join(scratch, 'in-use-'));
    const lock = lockDataFolder(dir);
    try {
      process.env.CRONBEAT_DATA_DIR = dir;
      const electron = await launch();
      expect(electron.dialog.showErrorBox).toHaveBeenCalledWith('Cronbeat could not start', expect.stringMatching(/in use by another Cronbeat agent \(process \d+\)/));
      expect(electron.app.exit).toHaveBeenCalledWith(1);
      expect(electron.createdWindows).toEqual([]);
      expect(electron.FakeTray.created).toEqual([]);
    } finally {
      lock.release();
    }
  });

  it('a second launch while it is still starting (hidden, at login) opens the window once it is ready, not never', async () => {
    // Holds 8787 when it is free, so the test never takes the well-known port.
    const blocker = createServer();
    await new Promise<void>((resolve) => {
      blocker.once('error', () => resolve());
      blocker.listen(8787, '127.0.0.1', () => resolve());
    });
    process.env.CRONBEAT_DATA_DIR = mkdtempSync(join(scratch, 'hidden-'));
    process.argv.push('--hidden');
    try {
      vi.resetModules();
      await import('../../main/main');
      const electron = (await import('electron')) as unknown as typeof import('./electronMock');
      // Its agent is still starting: there is no window to bring forward yet.
      expect(electron.createdWindows).toEqual([]);
      electron.app.emit('second-instance');
      await until(() => electron.createdWindows.length > 0, 'the window', 10_000);
      electron.app.emit('will-quit', { preventDefault: () => {} });
      await until(() => electron.app.quit.mock.calls.length > 0, 'the agent to stop', 10_000);
    } finally {
      process.argv.splice(process.argv.indexOf('--hidden'), 1);
      blocker.close();
    }
  });
});
