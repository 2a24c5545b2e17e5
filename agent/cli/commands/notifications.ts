import { parseArgs } from '../parseOptions';
import { apiKeyOf } from '../apiKey';
import { agentName, noticeText, type ConnectionNotice } from '../../client/connection/connectionWatch';
import { DEFAULT_BASE_URL, shownUrl } from '../../client/connection/baseUrl';
import { FollowRefused, NotificationFollower } from '../../client/follow/follower';
import { notificationLine, followerPopups, type FollowerPopup } from '../../client/follow/notificationPopups';
import type { FollowedNotification } from '../../client/follow/notificationCursor';
import { UsageError, type Command } from '../command';
import { baseUrlOption } from './ping';
import { hasDesktop } from '../../domain/alerts/desktop';
import { machineZone } from '../machineZone';

const help = `Usage: cronbeat notifications --follow [--url URL] [--token KEY] [--json] [--popups]

Follows an agent's notifications (failures, recoveries, certificates, crontab changes) as they
happen, for a terminal or a Linux desktop without a tray. Each new one is printed once, as one
line. When the connection drops (the agent restarts, the network goes away), it reconnects and
prints what it missed, each exactly once. An agent gone for over a minute is reported once on
stderr ("Cronbeat on backup-box unreachable since 14:02"), and once more when it is back.

Options:
  --follow       keep following (the only mode for now; stop with Ctrl-C)
  --url URL      the agent (default: $CRONBEAT_URL, else ${DEFAULT_BASE_URL})
  --token KEY    an API key that may read notifications, a read-only one is enough
                 (default: $CRONBEAT_API_TOKEN); a ping key is refused
  --json         one JSON object a line: the notification as the API gives it, with its "id"
  --popups       also raise a desktop popup for each (many at once make one popup)

It starts with what happens from now on; older notifications are in the dashboard and in
GET /api/notifications.

Exit status: 1 the agent refused the key (the message says why), 2 wrong usage; 0 on Ctrl-C.

Example:
  CRONBEAT_API_TOKEN=cb_… cronbeat notifications --follow --url https://cronbeat.example.com --popups`;

/** Local time of day, as a person reads a notice: "14:02". */
function timeOfDay(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: machineZone() });
}

export const notificationsCommand: Command = {
  name: 'notifications',
  summary: 'Follow an agent’s notifications in a terminal (--follow), with popups if asked',
  help,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        follow: { type: 'boolean', default: false },
        url: { type: 'string' },
        token: { type: 'string' },
        json: { type: 'boolean', default: false },
        popups: { type: 'boolean', default: false },
      },
    });
    if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
    if (!values.follow) throw new UsageError('Say --follow: `cronbeat notifications --follow` prints each new notification as it happens.');
    const token = apiKeyOf(values.token);
    if (!token) throw new UsageError('An API key is needed: --token or CRONBEAT_API_TOKEN (make one with `cronbeat token create`).');
    const baseUrl = baseUrlOption(values.url);
    const shown = shownUrl(baseUrl);
    const name = agentName(baseUrl);

    let raise: (popup: FollowerPopup) => void = () => {};
    if (values.popups && !hasDesktop(process.platform, process.env)) {
      console.error('cronbeat: No desktop here (DISPLAY and WAYLAND_DISPLAY are unset): --popups is off; the notifications are printed.');
    } else if (values.popups) {
      const { desktopNotifier } = await import('../../engine/popups/desktopNotifier');
      const notifier = desktopNotifier((line) => console.error(`cronbeat: ${line}`));
      raise = (popup) => notifier.show(popup);
    }
    const print = (notification: FollowedNotification) =>
      console.log(values.json ? JSON.stringify(notification) : notificationLine(notification));
    const tell = (notice: ConnectionNotice) => {
      const { title, body } = noticeText(notice, name, timeOfDay);
      console.error(`cronbeat: ${title}`);
      raise({ title, body, route: '/' });
    };

    let connectedOnce = false;
    // "following" once per "lost": an agent that drops every stream at once is not announced at every attempt.
    let saidFollowing = false;
    const follower = new NotificationFollower({
      baseUrl,
      token,
      stopWhenWrongPlace: true,
      onNotifications(notifications, info) {
        for (const notification of notifications) print(notification);
        for (const popup of followerPopups(notifications, info)) raise(popup);
      },
      onNotice: tell,
      onConnection(connected, reason) {
        if (connected && !saidFollowing) console.error(`cronbeat: following ${shown}`);
        // Before the first connection there is nothing to lose: say it cannot be reached yet.
        else if (!connected) console.error(connectedOnce ? `cronbeat: lost ${shown} (${reason}); reconnecting` : `cronbeat: cannot reach ${shown} (${reason}); retrying`);
        connectedOnce ||= connected;
        saidFollowing = connected;
      },
    });
    const stop = () => follower.stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      await follower.run();
    } catch (error) {
      if (error instanceof FollowRefused) throw new UsageError(error.message, 1);
      throw error;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    return 0;
  },
};
