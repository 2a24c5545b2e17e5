/**
 * The whole main process (main/main.ts) when its agent cannot start, with only Electron mocked:
 * one dialog saying why and what to do, then the app exits, never a stack trace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
});
