import { homedir } from 'node:os';
import { join } from 'node:path';
import { LAUNCHD_LABEL, launchdPlist, SYSTEMD_UNIT_NAME, systemdUnit, type ServiceScope, type ServiceSpec } from './units';

/*
 * Where a service's file goes on this OS and which commands enable, disable and show it. Pure
 * (the environment is passed in), so the command itself only writes files and runs these.
 */

export type ServiceManager = 'systemd' | 'launchd';

export interface ServicePlace {
  manager: ServiceManager;
  file: string;
  /**
   * What `service status` needs to know of the installed service (serviceRecord.ts), beside the
   * file and hidden: systemd and launchd pass over names that start with a dot.
   */
  record: string;
  /** The file's text. */
  text: string;
  /** Run before `enable`, their failures ignored: take out a service already loaded (a second install). */
  replace: string[][];
  enable: string[][];
  disable: string[][];
  status: string[][];
  /** Where its output goes, as a command a person types. */
  logs: string;
}

export interface PlaceInput {
  platform: NodeJS.Platform;
  scope: ServiceScope;
  spec: ServiceSpec;
  env: NodeJS.ProcessEnv;
  home?: string;
  /** Overrides the folder the file goes in (e.g. a test's temporary root). */
  unitDir?: string;
  /** macOS: the user's id, for launchctl's gui/UID domain. */
  uid?: number;
}

/** The service manager of an OS; null where Cronbeat has none to offer. */
export function serviceManagerFor(platform: NodeJS.Platform): ServiceManager | null {
  if (platform === 'linux') return 'systemd';
  if (platform === 'darwin') return 'launchd';
  return null;
}

/** Where the file goes, its text, and the commands around it. Throws for an OS without a manager. */
export function servicePlace(input: PlaceInput): ServicePlace {
  const manager = serviceManagerFor(input.platform);
  const home = input.home ?? homedir();
  const system = input.scope === 'system';
  if (manager === 'systemd') {
    const dir = input.unitDir ?? (system ? '/etc/systemd/system' : join(input.env.XDG_CONFIG_HOME || join(home, '.config'), 'systemd', 'user'));
    const systemctl = system ? ['systemctl'] : ['systemctl', '--user'];
    // restart, not `enable --now`: installed again with other flags, a running agent keeps its old ones until restarted.
    const enable = [
      [...systemctl, 'daemon-reload'],
      [...systemctl, 'enable', SYSTEMD_UNIT_NAME],
      [...systemctl, 'restart', SYSTEMD_UNIT_NAME],
    ];
    // A user's services stop at logout unless lingering is on: an always-on agent needs it.
    if (!system) enable.push(['loginctl', 'enable-linger', input.env.USER || input.env.LOGNAME || '$USER']);
    return {
      manager,
      file: join(dir, SYSTEMD_UNIT_NAME),
      record: join(dir, `.${SYSTEMD_UNIT_NAME}.json`),
      text: systemdUnit(input.spec),
      replace: [],
      enable,
      disable: [[...systemctl, 'disable', '--now', SYSTEMD_UNIT_NAME]],
      status: [[...systemctl, 'status', '--no-pager', SYSTEMD_UNIT_NAME]],
      logs: `journalctl${system ? '' : ' --user'} -u cronbeat -f`,
    };
  }
  if (manager === 'launchd') {
    const dir = input.unitDir ?? (system ? '/Library/LaunchDaemons' : join(home, 'Library', 'LaunchAgents'));
    const file = join(dir, `${LAUNCHD_LABEL}.plist`);
    const domain = system ? 'system' : `gui/${input.uid ?? process.getuid?.() ?? 501}`;
    return {
      manager,
      file,
      record: join(dir, `.${LAUNCHD_LABEL}.json`),
      text: launchdPlist(input.spec),
      // launchd refuses to bootstrap a label it has loaded: the old one goes first, or the new file would be ignored.
      replace: [['launchctl', 'bootout', `${domain}/${LAUNCHD_LABEL}`]],
      enable: [['launchctl', 'bootstrap', domain, file]],
      disable: [['launchctl', 'bootout', `${domain}/${LAUNCHD_LABEL}`]],
      status: [['launchctl', 'print', `${domain}/${LAUNCHD_LABEL}`]],
      logs: `tail -f ${input.spec.logFile ?? '/var/log/system.log'}`,
    };
  }
  throw new Error(`Cronbeat can install a service on Linux (systemd) and macOS (launchd), not on ${input.platform}. Run \`cronbeat serve\` under your OS's service manager, or use the Docker image (docs/deploy.md).`);
}

/** A command as a person types it in a shell. */
export function commandLine(command: string[]): string {
  return command.map((arg) => (/^[A-Za-z0-9_@%+=:,./$-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}
