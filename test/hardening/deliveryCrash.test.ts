import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli';
import { Receiver } from '../helpers/receiver';
import { tempDir } from '../helpers/testAgent';
import { databaseFile } from '../../agent/dataFolder/dataDir';

/*
 * A notification committed, its delivery claimed and on the wire, and the agent (a real
 * `cronbeat serve`) killed with SIGKILL before the receiver answered: after the restart the
 * delivery is sent again, with the same delivery id, and recorded sent; nothing is sent a third time.
 */

let serving: ServeProcess | undefined;
let hook: Receiver | undefined;
afterEach(async () => {
  await serving?.stop();
  await hook?.stop();
  serving = undefined;
  hook = undefined;
});

describe('SIGKILL between a notification and its delivery', () => {
  it('delivers it after the restart, once', async () => {
    const dir = tempDir();
    const token = (await runCli(['token', 'create', '--data-dir', dir])).stdout.trim();
    // The first request is never answered: the agent dies while it waits.
    hook = await new Receiver(['hang', { status: 200, body: 'got it' }]).start();
    serving = await startServe(['--data-dir', dir, '--no-popups']);
    const api = (url: string, path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await api(serving.url, '/api/channels', { name: 'hook', kind: 'webhook', settings: { url: hook.url } })).status).toBe(201);
    expect((await api(serving.url, '/api/servers', { name: 'box', ip_address: '10.0.0.1', identifier: 'box' })).status).toBe(201);
    const alert = await (await api(serving.url, '/api/servers/alert', { username: 'root', server_id: 'box', command: 'rm -rf /tmp/x' })).json();
    await hook.received(1);
    expect(await serving.stop('SIGKILL')).toBeNull();

    const db = new Database(databaseFile(dir), { readonly: true });
    expect(db.prepare('SELECT status, attempts FROM deliveries').all()).toEqual([{ status: 'sending', attempts: 1 }]);
    db.close();

    serving = await startServe(['--data-dir', dir, '--no-popups']);
    await hook.received(2);
    let deliveries: Array<{ status: string; attempts: number }> = [];
    for (let i = 0; i < 200 && deliveries[0]?.status !== 'sent'; i++) {
      const response = await fetch(`${serving.url}/api/notifications/${alert.notification.id}/deliveries`, { headers: { Authorization: `Bearer ${token}` } });
      deliveries = await response.json();
      if (deliveries[0]?.status !== 'sent') await new Promise((r) => setTimeout(r, 25));
    }
    expect(deliveries).toMatchObject([{ status: 'sent', attempts: 2, response_body: 'got it' }]);
    const [first, second] = hook.requests;
    // The same alert (its link follows the port this restart listens on: no --public-url here).
    const withoutLink = (body: string) => ({ ...JSON.parse(body), link: undefined });
    expect(withoutLink(second.body)).toEqual(withoutLink(first.body));
    expect(second.headers['x-cronbeat-delivery']).toBe(first.headers['x-cronbeat-delivery']);
    expect(JSON.parse(second.body).notification_id).toBe(alert.notification.id);

    // A clean stop and start sends nothing more.
    await serving.stop();
    serving = await startServe(['--data-dir', dir, '--no-popups']);
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.requests).toHaveLength(2);
  });
});
