import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../helpers/cli';

/*
 * An installation whose better-sqlite3 addon is missing: `npm install -g` where it could not be
 * compiled, or a clone after an offline `npm run dist` (electron-builder removes the Node build
 * and nothing can rebuild it). Every command that opens the database says so in one line, with
 * the command that rebuilds it, instead of the bindings package's list of fifteen paths it tried.
 */

const ROOT = resolve(__dirname, '../..');

/** dist/ and node_modules as the package installs them, better-sqlite3 without its build/. */
function installWithoutAddon(): string {
  const install = tempFolder('cronbeat-no-addon-');
  mkdirSync(join(install, 'dist'));
  for (const file of ['cronbeat.cjs', 'cronbeat-full.cjs']) copyFileSync(join(ROOT, 'dist', file), join(install, 'dist', file));
  mkdirSync(join(install, 'node_modules'));
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry === 'better-sqlite3' || entry.startsWith('.')) continue;
    symlinkSync(join(ROOT, 'node_modules', entry), join(install, 'node_modules', entry));
  }
  const sqlite = join(ROOT, 'node_modules', 'better-sqlite3');
  cpSync(sqlite, join(install, 'node_modules', 'better-sqlite3'), { recursive: true, filter: (path) => !/[\\/](build|deps|src)$/.test(path) });
  return install;
}

describe('a missing better-sqlite3 addon', () => {
  it('is named in one line by serve and token create, with the command that rebuilds it', () => {
    const install = installWithoutAddon();
    for (const args of [['serve', '--port', '0', '--no-popups'], ['token', 'create']]) {
      const result = spawnSync(process.execPath, [join(install, 'dist', 'cronbeat.cjs'), ...args, '--data-dir', tempFolder()], { encoding: 'utf8', timeout: 30_000 });
      expect([result.status, result.stderr], args[0]).toEqual([
        1,
        `cronbeat: better-sqlite3's native addon is missing, so Cronbeat cannot open its database. Rebuild it: cd ${install} && npm rebuild better-sqlite3 (where no prebuilt one can be fetched, this compiles it and needs python3, make and a C++ compiler).\n`,
      ]);
    }
  });
});
