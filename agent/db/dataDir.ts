import { mkdirSync, chmodSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface DataDirSources {
  flag?: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
}

/** Where Cronbeat keeps its data: --data-dir, else CRONBEAT_DATA_DIR, else the OS's per-user data folder. */
export function resolveDataDir({ flag, env, platform, home }: DataDirSources): string {
  if (flag) return flag;
  if (env.CRONBEAT_DATA_DIR) return env.CRONBEAT_DATA_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Cronbeat');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Cronbeat');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'cronbeat');
}

/** resolveDataDir for this process, created if missing and kept private to the user (0700). */
export function prepareDataDir(flag?: string): string {
  const dir = resolveDataDir({ flag, env: process.env, platform: process.platform, home: homedir() });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
  return dir;
}

export function databaseFile(dataDir: string): string {
  return join(dataDir, 'cronbeat.db');
}
