import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { tightenIfOwn } from './privateFolder';

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
  // A relative XDG_DATA_HOME is to be ignored (XDG Base Directory): taken as it is, the folder
  // would be another under each folder a command runs in.
  const xdg = env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : join(home, '.local', 'share');
  return join(xdg, 'cronbeat');
}

/**
 * resolveDataDir for this process, created if missing and kept private (0700) when it is the
 * user's own. Whether the agent may use it is decided when it opens it (makeDataFolderPrivate).
 */
export function prepareDataDir(flag?: string): string {
  const dir = resolveDataDir({ flag, env: process.env, platform: process.platform, home: homedir() });
  tightenIfOwn(dir);
  return dir;
}

export function databaseFile(dataDir: string): string {
  return join(dataDir, 'cronbeat.db');
}
