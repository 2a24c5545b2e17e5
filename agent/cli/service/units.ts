/*
 * The files that make `cronbeat serve` a service: a systemd unit (Linux) and a launchd property
 * list (macOS). Pure: they depend only on what they are given, so tests check them with
 * `systemd-analyze verify` and an XML parser without installing anything.
 */

import { controlCharacterIn, terminalText, xmlText } from '../../domain/text/controlCharacters';

export type ServiceScope = 'user' | 'system';

export interface ServiceSpec {
  scope: ServiceScope;
  /** The program and its arguments, absolute paths: node, the CLI bundle, `serve`, its flags. */
  command: string[];
  dataDir: string;
  /** System services run as this user (never root). */
  user?: string;
  /** macOS: where the agent's output goes (launchd has no journal). */
  logFile?: string;
}

export const SYSTEMD_UNIT_NAME = 'cronbeat.service';
export const LAUNCHD_LABEL = 'dev.cronbeat.agent';

/*
 * How systemd reads the values Cronbeat writes (systemd.unit(5), systemd.service(5),
 * systemd.exec(5)), so that the unit says exactly what the user passed:
 * - every value goes through specifier expansion first: `%` is written `%%`;
 * - ExecStart= is split into words on spaces, with "double" quotes, and C escapes (`\\`, `\"`)
 *   inside them; a lone `;` separates commands, quoted it does not; in every argument but the
 *   program `$NAME` and `${NAME}` are the service's environment, so `$` is written `$$` there;
 * - Environment= is quoted and escaped as ExecStart=, but `$` means nothing in it;
 * - ReadWritePaths= takes quotes but no escapes (a backslash is itself), so a path goes in
 *   whichever quote it does not contain;
 * - a line break ends the setting (the rest would be a directive of its own) and a backslash at
 *   the end of a line joins the next: control characters are refused before any of this.
 */

/** Values no unit can carry: control characters (a line break would start a directive of its own). */
export class UnitValueError extends Error {}

/** A refused value as its message quotes it: on one line, its control characters written out (it may come from an agent's answer). */
const shown = (value: string) => terminalText(value, { oneLine: true });

function refuseControls(what: string, value: string): void {
  const found = controlCharacterIn(value);
  if (found) throw new UnitValueError(`${what} must not contain control characters (it has ${found}): a service's unit cannot carry them.`);
}

/** `value` quoted for ExecStart= or Environment=: in double quotes, with `\` and `"` escaped, when not plain. */
function quotedWord(value: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** One word of ExecStart: the program takes no `$` expansion, its arguments do. */
export function systemdQuote(arg: string, { program = false }: { program?: boolean } = {}): string {
  refuseControls(program ? 'The program path' : `The argument "${shown(arg)}"`, arg);
  const specifiers = arg.replace(/%/g, '%%');
  return quotedWord(program ? specifiers : specifiers.replace(/\$/g, '$$$$'));
}

/** One assignment of Environment=: specifiers escaped, `$` as it is. */
function environmentValue(name: string, value: string): string {
  refuseControls(name, value);
  return quotedWord(`${name}=${value.replace(/%/g, '%%')}`);
}

/** A path for ReadWritePaths=: quoted with the quote it does not contain (no escapes exist there). */
function namespacePath(path: string): string {
  refuseControls('The data folder', path);
  const value = path.replace(/%/g, '%%');
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  throw new UnitValueError(`The data folder of a system service cannot have both ' and " in its path: systemd's ReadWritePaths= has no way to say it (${path}).`);
}

/**
 * The systemd unit: starts after the network, restarts on failure (5 s apart, without giving
 * up), logs to the journal (`journalctl [--user] -u cronbeat`). A system unit runs as `user`,
 * may write only its data folder, and cannot gain privileges.
 */
export function systemdUnit(spec: ServiceSpec): string {
  const system = spec.scope === 'system';
  const lines = [
    '[Unit]',
    'Description=Cronbeat agent: job monitor API, monitor loop and dashboard',
    'Documentation=https://github.com/cronbeat/cronbeat/blob/main/docs/deploy.md',
    'After=network-online.target',
    'Wants=network-online.target',
    // Never stop retrying: an always-on agent that gave up tells nobody.
    'StartLimitIntervalSec=0',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${spec.command.map((arg, i) => systemdQuote(arg, { program: i === 0 })).join(' ')}`,
    `Environment=${environmentValue('CRONBEAT_DATA_DIR', spec.dataDir)}`,
    'Restart=on-failure',
    'RestartSec=5',
    // SIGTERM lets requests in flight finish and closes the database (cronbeat serve's own stop).
    'KillSignal=SIGTERM',
    'TimeoutStopSec=15',
    'StandardOutput=journal',
    'StandardError=journal',
    'SyslogIdentifier=cronbeat',
  ];
  if (system) {
    if (!spec.user) throw new Error('A system service needs the user it runs as.');
    // A user name has no quotes in systemd (User= is read whole), so anything but a plain name is refused.
    if (!/^[A-Za-z0-9_][A-Za-z0-9_.@-]*$/.test(spec.user)) throw new UnitValueError(`"${spec.user}" is not a user name a service can run as.`);
    lines.push(
      `User=${spec.user}`,
      'NoNewPrivileges=yes',
      'PrivateTmp=yes',
      'ProtectSystem=strict',
      'ProtectHome=read-only',
    );
    // Under /var/lib systemd makes the folder and gives it to the user on every start; elsewhere it must be theirs.
    const state = /^\/var\/lib\/([A-Za-z0-9_.-]+)\/?$/.exec(spec.dataDir)?.[1];
    if (state) lines.push(`StateDirectory=${state}`, 'StateDirectoryMode=0700');
    else lines.push(`ReadWritePaths=${namespacePath(spec.dataDir)}`);
  }
  lines.push('', '[Install]', `WantedBy=${system ? 'multi-user.target' : 'default.target'}`, '');
  return lines.join('\n');
}

/**
 * The launchd property list: started at load and at login (or boot for a daemon), started
 * again when it exits with an error, its output in `logFile` (launchd has no journal).
 */
export function launchdPlist(spec: ServiceSpec): string {
  // Control characters are refused (XML 1.0 has no place for most of them), the rest escaped.
  const string = (value: string) => {
    refuseControls(`"${shown(value)}"`, value);
    return `<string>${xmlText(value)}</string>`;
  };
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  ${string(LAUNCHD_LABEL)}`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...spec.command.map((arg) => `    ${string(arg)}`),
    '  </array>',
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    '    <key>CRONBEAT_DATA_DIR</key>',
    `    ${string(spec.dataDir)}`,
    '  </dict>',
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>ThrottleInterval</key>',
    '  <integer>5</integer>',
  ];
  if (spec.scope === 'system' && spec.user) lines.push('  <key>UserName</key>', `  ${string(spec.user)}`);
  if (spec.logFile) {
    lines.push('  <key>StandardOutPath</key>', `  ${string(spec.logFile)}`, '  <key>StandardErrorPath</key>', `  ${string(spec.logFile)}`);
  }
  lines.push('</dict>', '</plist>', '');
  return lines.join('\n');
}
