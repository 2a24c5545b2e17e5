import { parseArgs } from '../parseOptions';
import { databaseFile, prepareDataDir } from '../../dataFolder/dataDir';
import { makeDataFolderPrivate } from '../../dataFolder/privateFolder';
import { toNullableApiTimestamp } from '../../domain/time/apiTimestamps';
import { isKeyScope, KEY_SCOPES } from '../../domain/access/keyScopes';
import { DEFAULT_MAX_LINE_MONITORS, MAX_LINE_MONITORS_LIMIT, maxLineMonitors } from '../../domain/monitors/lineLimits';
import { UsageError, withoutControlCharacters, type Command } from '../command';
import { printTable } from '../crontab/table';
import { shortTime } from './monitor/shared';

const help = `Usage: cronbeat token <create|list|revoke|limit> [options]

Manages the API tokens that clients send as "Authorization: Bearer <token>".

  cronbeat token create [--name NAME] [--scope SCOPE] [--company ID] [--max-monitors N]
                                                       prints the new token alone on stdout
  cronbeat token list [--json]                         lists tokens (never their secrets)
  cronbeat token revoke ID                             revokes a token at once
  cronbeat token limit ID --max-monitors N|default     how many monitors its job lines may make

Options:
  --name NAME      a label for the token (default "cli")
  --scope SCOPE    what the token may do (default full):
                     full       everything
                     read-only  read lists, details, /metrics and the live stream; change nothing
                     ping       send pulses, create monitors from a job's line and send
                                \`crontab watch\` reports; nothing else (what goes on servers
                                and into crontabs as CRONBEAT_API_TOKEN)
                     badge      status badges only (/api/badges/TOKEN/…), safe in a public README
  --company ID     the company the token acts for (default 1; created if missing)
  --max-monitors N how many monitors the token's job lines (\`cronbeat run --name\`) may make,
                   1 to ${MAX_LINE_MONITORS_LIMIT} (default ${DEFAULT_MAX_LINE_MONITORS}; \`default\` puts it back)
  --data-dir DIR   the agent's data folder (default: $CRONBEAT_DATA_DIR, else the per-user folder)
  --json           list as JSON

Examples:
  TOKEN=$(cronbeat token create --name laptop)
  curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8787/api/monitors
  cronbeat token create --name web-01 --scope ping`;

function positiveInteger(raw: string | undefined, what: string): number {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw new UsageError(`${what} must be a positive integer, not "${raw ?? ''}".`);
  return Number(raw);
}

/** --max-monitors: a number, `default` (null), or left out (undefined; required by `limit`). */
function maxMonitorsOption(raw: string | undefined, required: boolean): number | null | undefined {
  if (raw === undefined) {
    if (required) throw new UsageError('Say the limit: --max-monitors N (or `default`).');
    return undefined;
  }
  if (raw === 'default') return null;
  const value = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1 && value <= MAX_LINE_MONITORS_LIMIT)) {
    throw new UsageError(`--max-monitors must be a whole number from 1 to ${MAX_LINE_MONITORS_LIMIT}, or \`default\`, not "${raw}".`);
  }
  return value;
}

export const tokenCommand: Command = {
  name: 'token',
  subcommands: ['create', 'list', 'revoke', 'limit'],
  summary: 'Create, list, limit and revoke API tokens',
  help,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string', default: 'cli' },
        scope: { type: 'string', default: 'full' },
        company: { type: 'string', default: '1' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        'max-monitors': { type: 'string' },
      },
    });
    const [action, id] = positionals;
    if (!['create', 'list', 'revoke', 'limit'].includes(action ?? '')) {
      throw new UsageError('Say what to do: `cronbeat token create`, `cronbeat token list`, `cronbeat token revoke ID` or `cronbeat token limit ID --max-monitors N`.');
    }
    const maxMonitors = maxMonitorsOption(values['max-monitors'], action === 'limit');
    const scope = values.scope;
    if (!isKeyScope(scope)) throw new UsageError(`--scope must be one of ${KEY_SCOPES.join(', ')}, not "${scope}".`);
    const name = withoutControlCharacters('--name', values.name!);
    // Loaded here, not at the top, so commands that never open the database start faster.
    const { openStore } = await import('../../db/store');
    const now = Date.now();
    const dataDir = prepareDataDir(values['data-dir']);
    makeDataFolderPrivate(dataDir); // refuses another user's folder or one made read-only
    await finishRestoreIfFree(dataDir, now);
    const store = openStore(databaseFile(dataDir), now);
    try {
      if (action === 'create') {
        const companyId = positiveInteger(values.company, '--company');
        store.companies.ensure(companyId, now);
        console.log(store.apiTokens.create({ companyId, name, scope, maxMonitors: maxMonitors ?? null, now }).token);
      } else if (action === 'list') {
        // JSON keeps the API's timestamps; the table says them on this machine's clock.
        const when = (ms: number | null) => (values.json ? toNullableApiTimestamp(ms) : shortTime(ms));
        const tokens = store.apiTokens.list().map((t) => ({
          id: t.id,
          company_id: t.company_id,
          name: t.name,
          scope: t.scope,
          created_at: when(t.created_at),
          last_used_at: when(t.last_used_at),
          revoked_at: when(t.revoked_at),
          max_monitors: maxLineMonitors(t.max_monitors),
        }));
        if (values.json) console.log(JSON.stringify(tokens, null, 2));
        else if (tokens.length === 0) console.log('No tokens yet. Create one with `cronbeat token create`.');
        else printTable(tokens, ['id', 'company_id', 'name', 'scope', 'created_at', 'last_used_at', 'revoked_at', 'max_monitors']);
      } else if (action === 'limit') {
        const tokenId = positiveInteger(id, 'The token ID');
        const row = store.apiTokens.list().find((t) => t.id === tokenId && t.revoked_at === null);
        if (!row || !store.apiTokens.setMaxMonitors(row.company_id, tokenId, maxMonitors ?? null)) {
          throw new UsageError(`No live token has the ID ${tokenId}.`, 1);
        }
        console.log(`Token ${tokenId}'s job lines may make ${maxLineMonitors(maxMonitors ?? null)} monitors.`);
      } else {
        const tokenId = positiveInteger(id, 'The token ID');
        const { revokeKey } = await import('../../db/keyRevocation');
        const rotated = revokeKey(store, tokenId, now);
        if (rotated === null) throw new UsageError(`No live token has the ID ${tokenId}.`, 1);
        console.log(`Token ${tokenId} revoked.${rotated.length === 0 ? '' : ` ${rotated.length} ${rotated.length === 1 ? 'monitor its job lines held has' : 'monitors its job lines held have'} a new pulse token (its holder was told the old ones); hand them to the key that replaces it: cronbeat monitor hand ${rotated.join(' ')} --key NEW_KEY_ID.`}`);
      }
    } finally {
      store.close();
    }
    return 0;
  },
};

/**
 * A restore killed while it renamed the files into place left no database: opened as it is, a new
 * empty one would be made and the key go there. Finished first, as the next start would, unless an
 * agent holds the folder (its start finished it already).
 */
async function finishRestoreIfFree(dataDir: string, now: number): Promise<void> {
  const { hasInterruptedRestore, finishInterruptedRestore } = await import('../../db/restoreFinish');
  if (!hasInterruptedRestore(databaseFile(dataDir))) return;
  const { lockDataFolder, DataFolderInUseError } = await import('../../db/lock');
  let lock;
  try {
    lock = lockDataFolder(dataDir);
  } catch (error) {
    if (error instanceof DataFolderInUseError) return;
    throw error;
  }
  try {
    const said = finishInterruptedRestore(databaseFile(dataDir), now);
    if (said) console.error(`cronbeat: ${said}`);
  } finally {
    lock.release();
  }
}
