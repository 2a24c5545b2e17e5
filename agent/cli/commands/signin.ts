import { existsSync } from 'node:fs';
import { homedir, hostname, networkInterfaces } from 'node:os';
import { parseArgs } from '../parseOptions';
import { databaseFile, resolveDataDir } from '../../dataFolder/dataDir';
import { readAgentAddress } from '../../dataFolder/agentAddress';
import { makeDataFolderPrivate } from '../../dataFolder/privateFolder';
import { resolveBaseUrl, shownUrl } from '../../client/connection/baseUrl';
import { isWildcard, urlFor } from '../../domain/access/reachability';
import { describeError } from '../../domain/text/errorText';
import { UsageError, type Command } from '../command';
import { serveBanner } from '../serveBanner';

const help = `Usage: cronbeat signin [--data-dir DIR] [--url URL] [--company ID]

Prints a new one-time link that signs a browser in to the dashboard of the agent running on this
data folder: for when the link \`cronbeat serve\` printed at start was used, expired (after 15
minutes) or went to a service's log. The link works once, for 15 minutes.

Options:
  --data-dir DIR   the agent's data folder (default: $CRONBEAT_DATA_DIR, else the per-user
                   folder); run it as the user the agent runs as (a service: sudo -u cronbeat)
  --url URL        where the agent is, when it is not where its data folder says (the agent
                   notes its address there while it runs; else $CRONBEAT_URL, else
                   http://127.0.0.1:8787)
  --company ID     the company to sign in to (default 1)

Exit status: 0 printed; 1 no agent answers there, or none runs on the data folder; 2 wrong usage.

Example:
  cronbeat signin`;

/** Whether an agent answers at `url`; why not when it does not. */
async function agentAnswers(url: string): Promise<string | null> {
  try {
    const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) });
    return response.status === 200 || response.status === 503 ? null : `it answered ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? describeError(error);
  }
}

export const signinCommand: Command = {
  name: 'signin',
  summary: 'Print a new sign-in link for the dashboard of the running agent',
  help,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'data-dir': { type: 'string' }, url: { type: 'string' }, company: { type: 'string', default: '1' } },
    });
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
    if (!/^[1-9]\d{0,9}$/.test(values.company!)) throw new UsageError(`--company must be a positive integer, not "${values.company}".`);
    // Not made here when missing: a link from a folder no agent runs on would not sign in.
    const dataDir = resolveDataDir({ flag: values['data-dir'], env: process.env, platform: process.platform, home: homedir() });
    const address = values.url === undefined ? readAgentAddress(dataDir) : null;
    // The address the agent noted is reached from this machine: loopback when it listens there or everywhere.
    const here = address && (isWildcard(address.host) ? urlFor('127.0.0.1', address.port) : urlFor(address.host.replace(/^\[|\]$/g, ''), address.port));
    const url = here ?? resolveBaseUrl(values.url);
    const problem = await agentAnswers(url);
    if (problem !== null) {
      throw new UsageError(`No Cronbeat agent answers at ${shownUrl(url)} (${problem}): start it with \`cronbeat serve\`, or say where it runs with --url.`, 1);
    }
    const [{ openStore }, { signInCodeRepository }, { isDataFolderHeld }, { publicUrlSetting }] = await Promise.all([
      import('../../db/store'),
      import('../../db/signInCodes'),
      import('../../db/lock'),
      import('../../db/settings'),
    ]);
    // The code goes into this folder's database: only the agent holding the folder would take it.
    if (!existsSync(databaseFile(dataDir)) || !isDataFolderHeld(dataDir)) {
      throw new UsageError(
        `No Cronbeat agent runs on the data folder ${dataDir}, so no link from it would sign in: start one with \`cronbeat serve\`, or give the folder of the one running with --data-dir (and run signin as the user it runs as).`,
        1,
      );
    }
    const now = Date.now();
    makeDataFolderPrivate(dataDir);
    const store = openStore(databaseFile(dataDir), now);
    let code: string;
    let publicUrl: string | null;
    try {
      store.companies.ensure(Number(values.company), now);
      code = signInCodeRepository(store.db).create(Number(values.company), now);
      publicUrl = publicUrlSetting(store.settings, address?.publicUrl ?? null).current();
    } finally {
      store.close();
    }
    const signInPath = `/#/sign-in?code=${code}`;
    if (!address) {
      console.log(`Open the dashboard (link works once, for 15 minutes): ${url}${signInPath}`);
      return 0;
    }
    // The same lines as serve's at start: the link for this machine, and for another one when others can reach it.
    const banner = serveBanner({ host: address.host, port: address.port, interfaces: networkInterfaces(), hostName: hostname(), signInPath, publicUrl });
    for (const line of banner.out.slice(1)) console.log(line);
    return 0;
  },
};
