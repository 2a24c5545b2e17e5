import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { templateOf, timerSettings, withSpecifiers, type TimerSettings } from './unitFile';

/*
 * Where systemd reads units from (systemd.unit(5), "Unit File Load Path"), first wins, and the
 * timers found there. `root` prefixes every folder, as `systemctl --root` does.
 */

export type Scope = 'system' | 'user';

export interface UnitFolders {
  scope: Scope;
  /** Highest precedence first. */
  search: string[];
  /** Where an administrator's own units and drop-ins go: the first of `search`. */
  write: string;
}

export function unitFolders(scope: Scope, root: string, home = process.env.HOME || homedir(), config = process.env.XDG_CONFIG_HOME): UnitFolders {
  const at = (path: string) => join(root, path);
  if (scope === 'system') {
    const search = ['/etc/systemd/system', '/run/systemd/system', '/usr/local/lib/systemd/system', '/usr/lib/systemd/system', '/lib/systemd/system'].map(at);
    return { scope, search, write: search[0]! };
  }
  const own = at(join(config || join(home, '.config'), 'systemd/user'));
  const search = [own, at('/etc/systemd/user'), at(join(home, '.local/share/systemd/user')), at('/usr/local/lib/systemd/user'), at('/usr/lib/systemd/user'), at('/lib/systemd/user')];
  return { scope, search, write: own };
}

export interface FoundTimer extends TimerSettings {
  scope: Scope;
  /** The file it was read from (for an instance, its template's). */
  path: string;
  /** Whether some target wants or requires it: a timer no one enables never runs. */
  enabled: boolean;
  /** The file of the service it starts; null when none is found. */
  servicePath: string | null;
}

export class UnitReadError extends Error {}

function entries(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new UnitReadError(`Cannot read ${folder}: ${(error as Error).message}.`);
  }
}

/** systemd's unit_name_is_valid for a timer: a prefix of its characters, at most one @, at most 255 characters. */
function unitNameValid(name: string): boolean {
  return name.length <= 255 && /^[A-Za-z0-9:_.\\-]+(@[A-Za-z0-9:_.\\-]*)?\.timer$/.test(name);
}

/** The file that defines `name` (or its template), first in precedence; null when none does or it is masked. */
export function unitFile(folders: UnitFolders, name: string): string | null {
  const template = templateOf(name);
  for (const candidate of template ? [name, template] : [name]) {
    for (const folder of folders.search) {
      const path = join(folder, candidate);
      try {
        if (readlinkSync(path) === '/dev/null') return null;
      } catch {
        // Not a symlink (or not there): read as a file below.
      }
      try {
        if (statSync(path).isFile()) return path;
      } catch {
        // Not in this folder; the next one.
      }
    }
  }
  return null;
}

/**
 * The units whose drop-in folders apply to `name`, most general first (systemd.unit(5)): every
 * unit of its type (`timer.d/`), the prefixes of its name up to each dash (`db-.timer.d/`,
 * `db-backup-.timer.d/` for `db-backup-nightly.timer`), its template, itself.
 */
function dropInUnits(name: string): string[] {
  const dot = name.lastIndexOf('.');
  const type = name.slice(dot + 1);
  const prefix = name.slice(0, dot).replace(/@.*$/, '');
  const dashes = [...prefix.matchAll(/-/g)].map((match) => match.index).filter((at) => at > 0);
  const template = templateOf(name);
  return [type, ...dashes.map((at) => `${prefix.slice(0, at + 1)}.${type}`), ...(template ? [template] : []), name];
}

/** A unit's text with its drop-ins (`NAME.d/*.conf`, the template's, its prefixes' and its type's too) after it, as systemd merges them. */
function unitText(folders: UnitFolders, name: string, path: string): string {
  const dropIns = new Map<string, string>();
  for (const folder of [...folders.search].reverse()) {
    for (const unit of dropInUnits(name)) {
      const dir = join(folder, `${unit}.d`);
      for (const file of entries(dir)) if (file.endsWith('.conf')) dropIns.set(file, join(dir, file));
    }
  }
  const texts = [readFileSync(path, 'utf8')];
  for (const file of [...dropIns.keys()].sort()) texts.push(readFileSync(dropIns.get(file)!, 'utf8'));
  return texts.join('\n');
}

/** The timers of the folders: unit files and the instances targets want, each once, by name. */
export function findTimers(folders: UnitFolders): FoundTimer[] {
  const names = new Set<string>();
  const enabled = new Set<string>();
  for (const folder of folders.search) {
    for (const entry of entries(folder)) {
      if (entry.endsWith('.timer')) names.add(entry);
      if (/\.(wants|requires)$/.test(entry)) {
        for (const wanted of entries(join(folder, entry))) {
          if (!wanted.endsWith('.timer')) continue;
          names.add(wanted);
          enabled.add(wanted);
        }
      }
    }
  }
  const timers: FoundTimer[] = [];
  for (const name of [...names].sort()) {
    if (/@\.timer$/.test(name)) continue;
    const path = unitFile(folders, name);
    if (!path) continue;
    let settings: TimerSettings;
    try {
      settings = timerSettings(name, unitText(folders, name, path));
    } catch (error) {
      throw new UnitReadError(`Cannot read ${path}: ${(error as Error).message}.`);
    }
    const service = withSpecifiers(settings.service, name);
    const servicePath = unitFile(folders, service);
    const unmonitorable = !unitNameValid(name)
      ? `"${name}" is no unit name systemd loads (letters, digits and : - _ . \\ only, escape others as systemd-escape does)`
      : (settings.unmonitorable ?? (servicePath ? null : `the unit it starts, ${service}, is not found`));
    timers.push({ ...settings, service, unmonitorable, scope: folders.scope, path, enabled: enabled.has(name), servicePath });
  }
  return timers;
}

/** The drop-in folder of a service in the folder an administrator writes to. */
export function dropInFolder(folders: UnitFolders, service: string): string {
  return join(folders.write, `${basename(service)}.d`);
}
