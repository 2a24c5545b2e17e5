import type { ApiClient } from '../../client/connection/api';
import { printable } from './table';

/**
 * `crontab discover --undo --delete-monitors`: deletes the monitors the undone lines pinged by
 * token, after the lines are put back (a line left pinging a deleted monitor would be refused).
 * A line by name (--by-name) carries no token: its monitor is found by nothing here and kept.
 */
export async function deleteDiscoveredMonitors(api: ApiClient, tokens: readonly string[]): Promise<number> {
  const wanted = new Set(tokens.filter((token) => !token.startsWith('-')));
  const monitors = (await api.monitors()).filter((monitor) => monitor.token !== null && wanted.has(monitor.token));
  for (const monitor of monitors) {
    await api.deleteMonitor(monitor.id);
    console.log(printable(`Deleted monitor "${monitor.name}" (id ${monitor.id}).`));
  }
  const byName = tokens.length - wanted.size;
  if (monitors.length === 0) console.log('No monitor of these lines was left to delete.');
  if (byName > 0) console.log(`${byName} line${byName === 1 ? '' : 's'} named its monitor (--by-name): delete it with \`cronbeat monitor delete NAME --yes\`.`);
  return 0;
}
