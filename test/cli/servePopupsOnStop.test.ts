import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ServeProcess } from '../helpers/cli';
import { failMonitorsAtOnce, fakeNotifySend, serveWithPopups } from '../helpers/fakeNotifySend';

/*
 * Past three popups at once, `cronbeat serve` holds the rest of a burst for a few seconds to show
 * them as one summary, and counts them as shown already (the popup outbox will not show them at
 * the next start). Stopped meanwhile (SIGTERM: systemd, Ctrl-C, a logout), it shows that summary
 * as it stops, as the desktop app does when it quits: they were never shown anywhere else.
 */
vi.setConfig({ testTimeout: 60_000 });

let serve: ServeProcess | undefined;
afterAll(async () => {
  await serve?.stop();
});

describe('cronbeat serve stopped while a burst of popups is held', () => {
  it('shows the held summary as it stops, so no failure goes without a popup', async () => {
    const notify = fakeNotifySend();
    let apiToken: string;
    ({ serve, apiToken } = await serveWithPopups(notify));
    await failMonitorsAtOnce(serve, apiToken, 12);
    // The first three are shown at once; the other nine wait for the burst's group wait (5 s).
    while (notify.titles().length < 3) await sleep(50);
    expect(await serve.stop()).toBe(0);
    serve = undefined;

    const titles = notify.titles();
    expect(titles).toHaveLength(4);
    expect(titles.slice(0, 3).every((title) => /^✗ job-\d+ failed$/.test(title))).toBe(true);
    expect(titles[3]).toBe('Cronbeat: 9 alerts at once');
  });
});
