import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { UsageError } from '../command';
import { closedToOthers, volatilePlace } from '../crontab/shim';
import { version } from '../../../package.json';
import { commandLine } from './plan';

/*
 * Who a service runs as and what it runs, checked before anything is written: a unit that fails
 * at every start is restarted for ever (StartLimitIntervalSec=0), telling only the journal.
 */

export const SYSTEM_DATA_DIR = '/var/lib/cronbeat';

/** The user a system service runs as: --run-as, else whoever ran sudo, else this user; never root. */
export function systemUser(runAs: string | undefined): string {
  const user = runAs ?? process.env.SUDO_USER ?? userInfo().username;
  if (!user || user === 'root') throw new UsageError('A system service must not run as root: say which user with --run-as NAME.');
  return user;
}

/**
 * Where Cronbeat stays installed. Never by its name from the npm registry (nor through npx): the
 * name there is not Cronbeat's, and whoever holds it would be installed, as root for a system service.
 */
const INSTALL_WHERE_IT_STAYS =
  `Install Cronbeat where it stays: a clone of its repository after \`npm install\`, or the tarball \`npm pack\` makes there, ` +
  `installed with \`npm install -g ./cronbeat-${version}.tgz\`; then run \`cronbeat service install\` from there.`;

/**
 * The program and bundle the service runs, refused where they would vanish: a cronbeat run
 * through npx lives in npm's cache, cleaned at will, and the service would stop starting then
 * (the rule crontab lines follow, crontab/shim.ts).
 */
export function refuseVanishingProgram(): void {
  for (const path of [realpathSync(process.argv[1]), realpathSync(process.execPath)]) {
    const why = volatilePlace(path);
    if (why) {
      throw new UsageError(
        `A service must not run ${path}: ${why}. ${INSTALL_WHERE_IT_STAYS}`,
        1,
      );
    }
  }
}

/** The user's id, from the system's user database; null when there is no such user here. */
function uidOf(user: string): number | null {
  const result = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  return result.status === 0 ? Number(result.stdout.trim()) : null;
}

/** The user's group id; null when there is no such user here. */
function gidOf(user: string): number | null {
  const result = spawnSync('id', ['-g', user], { encoding: 'utf8' });
  return result.status === 0 ? Number(result.stdout.trim()) : null;
}

/**
 * A system service runs as another user: node and the bundle must be reachable by them. Under
 * root's home (nvm, a global install by root) they are not, and the unit would fail at every
 * start, in a loop that only the journal tells of.
 */
export function refuseUnreachableProgram(user: string): void {
  const uid = uidOf(user);
  for (const path of [realpathSync(process.argv[1]), realpathSync(process.execPath)]) {
    const closed = closedToOthers(path);
    if (closed && statSync(closed).uid !== uid) {
      throw new UsageError(
        `The service runs as ${user}, who cannot read ${path}: ${closed} is closed to other users. Install node and Cronbeat where every user can read them (e.g. under /usr/local or /opt), or run \`chmod o+rx ${commandLine([closed])}\` if that is fine.`,
        1,
      );
    }
  }
}

/**
 * A system service's data folder outside /var/lib (where systemd makes it): systemd will not start
 * a unit whose ReadWritePaths= is missing, so a missing one is made here, private to the service's
 * user; one that exists is left as it is, with the command that hands it over when it is not theirs.
 */
export function systemDataFolder(dataDir: string, user: string): void {
  const uid = uidOf(user);
  if (!existsSync(dataDir) && uid !== null && process.getuid?.() === 0) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chownSync(dataDir, uid, gidOf(user) ?? uid);
    console.log(`Made the data folder ${dataDir}, private to ${user}`);
    return;
  }
  if (existsSync(dataDir) && statSync(dataDir).uid === uid) return;
  const make = existsSync(dataDir) ? '' : `sudo mkdir -p ${commandLine([dataDir])} && `;
  console.log(`The data folder ${dataDir} must belong to the service's user: ${make}sudo chown -R ${user}: ${commandLine([dataDir])}`);
}

/** A system service's user must exist: systemd would fail the unit at every start, for ever (StartLimitIntervalSec=0). */
export function refuseUnknownUser(user: string): void {
  const known = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  // Without an `id` to ask, nothing can be said of the user: systemd will.
  if (known.error || known.status === 0) return;
  throw new UsageError(
    `There is no user ${user} on this machine for the service to run as: make one first (sudo useradd --system --home-dir ${SYSTEM_DATA_DIR} --shell /usr/sbin/nologin ${user}), or name another with --run-as.`,
  );
}

/**
 * `sudo cronbeat service install` without --system would make a service of root's, the agent
 * running as root: what --system refuses. Whoever typed sudo meant one of the two scopes.
 */
export function refuseRootThroughSudo(): void {
  const user = process.env.SUDO_USER;
  if (process.getuid?.() !== 0 || !user || user === 'root') return;
  throw new UsageError(
    `Run through sudo, this would install a service of root, running the agent as root. For a service of your own user, run \`cronbeat service install\` as ${user}, without sudo; for a system service that runs as ${user}, \`sudo cronbeat service install --system\`.`,
  );
}
