import { fstatSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { prepareDataDir } from '../../dataFolder/dataDir';
import { UsageError, type Command } from '../command';
import { serveBanner, trustProxyWarning, writesToJournal } from '../serveBanner';
import { parseServeFlags } from '../serveFlags';
import { checkPublicUrl } from '../../domain/access/publicUrl';
import { checkWatchdogUrl } from '../../domain/agentHealth/watchdog';
import { hasDesktop, NO_DESKTOP_LINE } from '../../domain/alerts/desktop';
import { removeAgentAddress, writeAgentAddress } from '../../dataFolder/agentAddress';

const help = `Usage: cronbeat serve [--host HOST] [--port PORT] [--data-dir DIR] [--no-popups] [--allow-host NAME]
                      [--trust-proxy] [--public-url URL] [--watchdog-url URL]

Runs the Cronbeat agent: the HTTP API, the monitor loop and the dashboard.

Options:
  --host HOST      address to bind (default 127.0.0.1; only this machine can reach it).
                   0.0.0.0 lets your servers reach it: it then prints this machine's
                   addresses, what that exposes and a sign-in link for another machine
  --port PORT      port to listen on (default 8787; 0 picks a free one)
  --data-dir DIR   where the database lives (default: $CRONBEAT_DATA_DIR, else the
                   per-user data folder, e.g. ~/.local/share/cronbeat)
  --no-popups      no desktop popups when a monitor fails or recovers (they still
                   appear in /api/notifications)
  --allow-host NAME
                   a further host name the API answers to (repeatable), e.g. the DNS name
                   your servers use for this machine; other names get 421 (see docs/security.md,
                   DNS rebinding)
  --trust-proxy    the agent sits behind a reverse proxy (Caddy, nginx) that sets
                   X-Forwarded-For and X-Forwarded-Proto: the client's address (for the
                   failed-sign-in limiter) and the scheme (https in links) come from them.
                   Also CRONBEAT_TRUST_PROXY=1. Without it those headers are ignored.
                   Only the proxy may reach the port: with a --host other machines reach,
                   serve warns at start that a client going around the proxy can forge them.
                   See docs/deploy.md
  --public-url URL the address you open Cronbeat at from anywhere, e.g.
                   https://cron.example.com: the base of every link in alerts, popups and
                   the dashboard's copy-paste lines, and a host the agent answers to. Also
                   CRONBEAT_PUBLIC_URL, or the dashboard's Settings. Without it, links point
                   at this machine's address and open only here (docs/channels.md)
  --watchdog-url URL
                   a dead-man's switch outside this machine (a healthchecks.io check's
                   ping URL, an Uptime Kuma push URL): pinged 5 s after start, then every
                   minute while the monitor loop is healthy, so someone else alerts you
                   when the agent dies or hangs. A plain GET; the URL is a secret and is
                   never logged. Also CRONBEAT_WATCHDOG_URL, or the dashboard's Settings
                   (docs/deploy.md)

Stops cleanly on Ctrl-C (SIGINT), SIGTERM or SIGHUP: requests in flight finish, the database closes.

Example:
  cronbeat serve --port 8787`;

/** The watchdog URL given (flag or environment, named in the error, the URL itself not repeated: it is a secret). */
function watchdogUrlOption(value: string | undefined, fromFlag: boolean): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const checked = checkWatchdogUrl(value);
  if ('error' in checked) throw new UsageError(`${fromFlag ? '--watchdog-url' : 'CRONBEAT_WATCHDOG_URL'} ${checked.error}`);
  return checked.url;
}

/** The public URL given (flag or environment, named in the error), checked; undefined when none or empty. */
function publicUrlOption(value: string | undefined, fromFlag: boolean): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const checked = checkPublicUrl(value);
  if ('error' in checked) throw new UsageError(`${fromFlag ? '--public-url' : 'CRONBEAT_PUBLIC_URL'} ${checked.error} Got "${value}".`);
  return checked.url;
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the agent (API, monitor loop, dashboard)',
  help,
  async run(argv) {
    const values = parseServeFlags(argv);
    const { port } = values;
    const dataDir = prepareDataDir(values['data-dir']);
    const trustProxy = values['trust-proxy'] || switchOption('CRONBEAT_TRUST_PROXY', process.env.CRONBEAT_TRUST_PROXY);
    const logLevel = logLevelOption(process.env.CRONBEAT_LOG_LEVEL);
    const publicUrl = publicUrlOption(values['public-url'] ?? process.env.CRONBEAT_PUBLIC_URL, values['public-url'] !== undefined);
    const watchdogUrl = watchdogUrlOption(values['watchdog-url'] ?? process.env.CRONBEAT_WATCHDOG_URL, values['watchdog-url'] !== undefined);
    // Loaded here, not at the top: the agent (Koa, SQLite, zod) would slow every other command's start.
    const [{ startAgent }, { desktopNotifier }, { silentNotifier }, { prepareSignInLink }, { createLogger, pinoLog }, { publicUrlSetting }] = await Promise.all([
      import('../../agent'),
      import('../../engine/popups/desktopNotifier'),
      import('../../engine/popups/notifier'),
      import('../../api/routes/session'),
      import('../../log/logger'),
      import('../../db/settings'),
    ]);

    // Where no desktop is (a server, a container, a system service), popups would go nowhere.
    const popups = !values['no-popups'] && hasDesktop(process.platform, process.env);
    let agent;
    let desktop: ReturnType<typeof desktopNotifier> | null = null;
    try {
      // The agent's log: stderr, JSON lines (pretty on a terminal); stdout keeps the banner for the user.
      const log = pinoLog(createLogger({ level: logLevel }));
      desktop = popups ? desktopNotifier(log) : null;
      const notifier = desktop ?? silentNotifier;
      // Listening at once, reads answered while the database is checked; writes wait for the check.
      agent = await startAgent({ dataDir, host: values.host, port, log, notifier, popups, allowedHosts: values['allow-host'], trustProxy, publicUrl, watchdogUrl, checkWhileListening: true });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EADDRINUSE') throw new UsageError(`Port ${port} on ${values.host} is already in use. Choose another with --port.`, 1);
      if (code === 'EADDRNOTAVAIL') throw new UsageError(`This machine has no address ${values.host}. Choose another with --host.`, 1);
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
        throw new UsageError(`--host ${values.host} is no address of this machine, nor a name that resolves to one. Choose another with --host.`, 1);
      }
      if (code === 'EACCES' && (error as { syscall?: string }).syscall === 'listen') {
        throw new UsageError(
          `Port ${port} on ${values.host} needs privileges this user does not have (ports below 1024 are the system's). Choose one from 1024 up with --port, or put a proxy in front (docs/deploy.md).`,
          1,
        );
      }
      throw diskFullInWords(error, dataDir);
    }
    // Before the banner: whoever reads "listening" may stop the agent at once, and must find it stopping cleanly.
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => {
      stop = () => {
        for (const signal of STOP_SIGNALS) process.off(signal, stop);
        resolve();
      };
      for (const signal of STOP_SIGNALS) process.on(signal, stop);
    });
    // No link in the journal: `cronbeat signin` prints one to whoever asks on this machine.
    const signIn = writesToJournal(process.env.JOURNAL_STREAM, standardOutput()) ? null : prepareSignInLink('');
    const banner = serveBanner({
      host: agent.host,
      port: agent.port,
      interfaces: networkInterfaces(),
      hostName: hostname(),
      signInPath: signIn?.link ?? null,
      publicUrl: publicUrlSetting(agent.store.settings, publicUrl ?? null).current(),
    });
    const running = agent;
    if (signIn) running.whenWritable(() => signIn.save(running.store, running.clock()));
    for (const line of banner.err) console.error(line);
    if (!values['no-popups'] && !popups) console.error(NO_DESKTOP_LINE);
    const proxyWarning = trustProxyWarning(agent.host, agent.port, trustProxy);
    if (proxyWarning) console.error(proxyWarning);
    for (const line of banner.out) console.log(line);
    // For `cronbeat signin`, which prints a new link to this agent later.
    writeAgentAddress(dataDir, { host: agent.host, port: agent.port, pid: process.pid, publicUrl: publicUrl ?? null });

    // A database the check refuses stops the agent (nothing was written): say why and exit 1.
    const refused = agent.ready.then(
      () => new Promise<never>(() => {}),
      (error: unknown) => Promise.reject(diskFullInWords(error, dataDir)),
    );
    try {
      await Promise.race([stopped, refused]);
    } finally {
      stop();
      removeAgentAddress(dataDir, process.pid);
    }
    await agent.close();
    // Popups a burst holds back to sum up are counted as shown by the agent: shown now, or never
    // (the process ends once they are handed over). Failures the loop had not shown yet wait in the popup outbox for the next start.
    desktop?.stop();
    return 0;
  },
};

/** The device and inode of standard output; null when it has none (closed). */
function standardOutput(): { dev: bigint; ino: bigint } | null {
  try {
    const { dev, ino } = fstatSync(1, { bigint: true });
    return { dev, ino };
  } catch {
    return null;
  }
}

/** SQLite's "database or disk is full" at start, said of the folder the user chose; any other error as it is. */
function diskFullInWords(error: unknown, dataDir: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'SQLITE_FULL' && code !== 'ENOSPC' && code !== 'EDQUOT') return error;
  return new UsageError(
    `The disk holding the data folder ${dataDir} is full: the agent cannot write its database. Free some space, or use a folder on another disk with --data-dir (or CRONBEAT_DATA_DIR).`,
    1,
  );
}

/*
 * A hang-up (the terminal closed, `npm start` passing it on) stops the agent as SIGTERM does: left
 * to Node's default it would die mid-request, its address note left behind for `cronbeat signin`.
 */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * An environment switch: 1, true, yes or on (any case) turn it on; 0, false, no, off or nothing
 * leave it off. Anything else is refused, not taken as off: `maybe` or `enabled` in a compose file
 * would leave the switch off without a word.
 */
function switchOption(name: string, value: string | undefined): boolean {
  const word = value?.trim().toLowerCase() ?? '';
  if (/^(1|true|yes|on)$/.test(word)) return true;
  if (/^(0|false|no|off|)$/.test(word)) return false;
  throw new UsageError(`${name} must be 1, true, yes or on to trust the proxy's headers (0, false, no, off or empty not to), not "${value}".`);
}

/** The levels pino knows; the docs name the four in the middle. */
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** CRONBEAT_LOG_LEVEL, any case; info when unset or empty. Checked here so a wrong one is named, not told in pino's words. */
function logLevelOption(value: string | undefined): string {
  const level = value?.trim().toLowerCase() || 'info';
  if (!LOG_LEVELS.includes(level)) throw new UsageError(`CRONBEAT_LOG_LEVEL must be debug, info, warn or error (or trace, fatal, silent), not "${value}".`);
  return level;
}
