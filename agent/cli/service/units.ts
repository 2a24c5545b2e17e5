/*
 * The files that make `cronbeat serve` a service: a systemd unit (Linux) and a launchd property
 * list (macOS). Pure: they depend only on what they are given, so tests check them with
 * `systemd-analyze verify` and an XML parser without installing anything.
 */

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

/** One argument of ExecStart, quoted as systemd reads it (`%` and `$` are systemd's own specifiers). */
export function systemdQuote(arg: string): string {
  const escaped = arg.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return escaped;
  return `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
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
    `ExecStart=${spec.command.map(systemdQuote).join(' ')}`,
    `Environment=${systemdQuote(`CRONBEAT_DATA_DIR=${spec.dataDir}`)}`,
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
    lines.push(
      `User=${spec.user}`,
      'NoNewPrivileges=yes',
      'PrivateTmp=yes',
      'ProtectSystem=strict',
      'ProtectHome=read-only',
    );
    // Under /var/lib systemd makes the folder and gives it to the user on every start; elsewhere it must be theirs.
    const state = /^\/var\/lib\/([^/]+)\/?$/.exec(spec.dataDir)?.[1];
    if (state) lines.push(`StateDirectory=${systemdQuote(state)}`, 'StateDirectoryMode=0700');
    else lines.push(`ReadWritePaths=${systemdQuote(spec.dataDir)}`);
  }
  lines.push('', '[Install]', `WantedBy=${system ? 'multi-user.target' : 'default.target'}`, '');
  return lines.join('\n');
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The launchd property list: started at load and at login (or boot for a daemon), started
 * again when it exits with an error, its output in `logFile` (launchd has no journal).
 */
export function launchdPlist(spec: ServiceSpec): string {
  const string = (value: string) => `<string>${xmlText(value)}</string>`;
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
