import type { Command } from './command';
import { serveCommand } from './commands/serve';
import { tokenCommand } from './commands/token';
import { crontabCommand } from './commands/crontab';
import { backupCommand } from './commands/backup';
import { restoreCommand } from './commands/restore';
import { monitorCommand } from './commands/monitor';
import { notificationsCommand } from './commands/notifications';
import { serviceCommand } from './commands/service';
import { maintenanceCommand } from './commands/maintenance';
import { timersCommand } from './commands/timers';
import { signinCommand } from './commands/signin';

/*
 * The commands beside the job side, built into dist/cronbeat-full.cjs with the npm packages they
 * use left outside (better-sqlite3, koa, pino…: installed with Cronbeat). The entry,
 * dist/cronbeat.cjs, loads this file only for these commands (see main.ts).
 */

// Register new commands here, one line each (`run`, `ping` and `spool` live in main.ts).
export const commands: Command[] = [serveCommand, tokenCommand, crontabCommand, backupCommand, restoreCommand, monitorCommand, maintenanceCommand, notificationsCommand, serviceCommand, timersCommand, signinCommand];
