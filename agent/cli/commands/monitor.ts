import { DEFAULT_BASE_URL } from '../../client/connection/baseUrl';
import { UsageError, type Command } from '../command';
import { didYouMean } from '../didYouMean';
import { createMonitor } from './monitor/create';
import { deleteMonitor } from './monitor/delete';
import { editMonitor } from './monitor/edit';
import { handMonitor } from './monitor/hand';
import { listMonitors } from './monitor/list';
import { pauseMonitor } from './monitor/pause';
import { resumeMonitor } from './monitor/resume';
import { rotateMonitorToken } from './monitor/rotateToken';
import { showMonitor } from './monitor/show';

const help = `Usage: cronbeat monitor <create|list|show|pause|resume|edit|delete|rotate-token|hand> [options]

Looks at and changes job monitors over the API, for admins who live in a terminal. The API
token comes from CRONBEAT_API_TOKEN (make one with \`cronbeat token create\`). A monitor is
named by its id or its exact name; #ID names the id alone (a number that is one monitor's id
and another's name is refused).

  cronbeat monitor create NAME --schedule "0 3 * * *" [--timezone Z] [--grace MIN]
                              [--max-runtime MIN] [--alert-after N] [--server ID] [--tags a,b]
      Makes a monitor and prints it with the crontab line that pings it by its token. The
      options are those of \`cronbeat run --name\`: the zone is this machine's unless
      --timezone says, the grace the schedule's own period up to an hour unless --grace says;
      --server ID tags it server:ID.
  cronbeat monitor list [--status new|monitoring|running|failed|paused|missed|stuck] [--project N] [--tag TAG]
      One line per monitor: status, schedule, next deadline, last pulse, tags; --tag keeps those
      with that tag (e.g. --tag server:web-01 for the jobs a line tagged with --server web-01).
      A monitor in trouble says which: failed (the job said so), missed (no run came) or stuck
      (a run is taking too long); --status failed lists all three.
  cronbeat monitor show ID|NAME
      Everything about one monitor, its pulse URL included (a full key only; a read-only key
      sees "hidden"), and the maintenance under way over it.
  cronbeat monitor pause ID|NAME [--for 1h | --until 18:00]
      Stops alerts: until you resume it, or (a snooze) for a while. Pulses are still recorded.
  cronbeat monitor resume ID|NAME
      Monitors it again from now: it waits for the schedule's next run.
  cronbeat monitor edit ID|NAME [--name N] [--schedule "0 3 * * *"] [--timezone Z]
                                [--grace MIN] [--max-runtime MIN|none] [--alert-after N]
                                [--project N|none] [--tags a,b]
      Changes it without a new token: crontab lines that ping it keep working. A new schedule
      counts from now; it never fails at once for a run it says was missed. A new --grace
      keeps the run it waits for, with the new deadline. A zone may be an
      old name (Asia/Calcutta, stored as Asia/Kolkata); a city or an abbreviation (Paris, EST)
      is refused with the zone it may mean. --tags sets the whole list ("" takes them off).
  cronbeat monitor delete ID|NAME --yes
      Deletes it and its history of runs; without --yes it says what would go and deletes
      nothing.
  cronbeat monitor rotate-token ID|NAME
      Gives it a new pulse token and prints it, for a token that leaked: the agent refuses the
      old one at once, so put the new one in the crontab lines that ping it by token (lines run
      with \`cronbeat run --name\` learn it by themselves). Needs a full key.
  cronbeat monitor hand ID|NAME… --key KEY_ID
      Lets the job line of key KEY_ID, and no other, pulse and change the monitor by its slug:
      for a monitor made in the dashboard, one whose key was revoked, or one a line made before
      Cronbeat recorded keys (the 409 its line gets names both ids). Several monitors at once.

Options:
  --json      print the API's JSON instead of text
  --url URL   the agent (default: $CRONBEAT_URL, else ${DEFAULT_BASE_URL})
  --for LEN   pause: a length such as 30m, 1h or 2d
  --until T   pause: a time of day (18:00; past today means tomorrow), a date and time
              ("2026-03-08 18:00"), both on this machine's clock and zone, or a date and
              time with its zone (2026-03-08T06:40:00Z)
  --grace MIN create, edit: the grace, minutes (1 or more) after each due time before the
              monitor fails (the API's \`duration\`)
  --max-runtime MIN
              create, edit: minutes a started run may take before it is stuck (1 or more;
              default: none, a start may run until the next run's deadline); edit: none
              takes it off
  --alert-after N
              create, edit: alert at the N-th failed or missed run in a row (1 to 100; 1, the
              default, alerts at the first); it shows failed from the first all the same
  --tags a,b  create, edit: its tags, comma-separated (letters, digits, "_", ".", ":", "-")
  --yes       delete: really delete

Exit status: 0 done, 1 the API refused (e.g. a bad schedule; the message names the field) or
could not be reached, or no such monitor, 2 wrong usage (with "did you mean …" when a zone,
schedule or sub-command is close to a right one).

Examples:
  export CRONBEAT_API_TOKEN=$(cronbeat token create --name laptop)
  cronbeat monitor create "nightly backup" --schedule "0 3 * * *" --tags prod,db
  cronbeat monitor list --status failed
  cronbeat monitor list --tag prod
  cronbeat monitor pause "nightly backup" --for 2h
  cronbeat monitor pause "nightly backup" --until 18:00
  cronbeat monitor edit 3 --schedule "30 2 * * *" --timezone Europe/Paris --grace 45
  cronbeat monitor edit "nightly backup" --alert-after 3
  cronbeat monitor rotate-token "nightly backup"
  cronbeat monitor delete "nightly backup" --yes`;

const ACTIONS: Record<string, (argv: string[]) => Promise<number>> = {
  create: createMonitor,
  list: listMonitors,
  show: showMonitor,
  pause: pauseMonitor,
  resume: resumeMonitor,
  edit: editMonitor,
  delete: deleteMonitor,
  'rotate-token': rotateMonitorToken,
  hand: handMonitor,
};

export const monitorCommand: Command = {
  name: 'monitor',
  subcommands: Object.keys(ACTIONS),
  summary: 'Create, list, show, pause, resume, edit, delete and hand over job monitors; rotate their pulse tokens',
  help,
  run([action, ...rest]) {
    const run = action === undefined ? undefined : ACTIONS[action];
    if (!run) {
      const close = action ? didYouMean(action, Object.keys(ACTIONS)) : '';
      throw new UsageError(`Say what to do: \`cronbeat monitor ${Object.keys(ACTIONS).join('|')}\`${action ? `, not "${action}"` : ''}.${close}`);
    }
    return run(rest);
  },
};
