import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../../helpers/smallDisk';
import { Receiver } from '../../helpers/receiver';
import { tempDir } from '../../helpers/testAgent';
import { at } from '../engineFixture';
import { deliveryFixture } from './deliveryFixture';

// The disk fills up while a send is on its way, so its result cannot be
// written. The delivery must not stay "sending" until the agent restarts: its claim ends with the
// attempt's timeout, and the worker sends it again by itself (at least once, same delivery id).

const smallDisk = mountSmallDisk(8);
afterAll(() => {
  if (smallDisk) unmountSmallDisk(smallDisk);
});

let fixture: ReturnType<typeof deliveryFixture> | undefined;
let hook: Receiver | undefined;
afterEach(async () => {
  await hook?.stop();
  await fixture?.close();
  fixture = hook = undefined;
});

const TIMEOUT_MS = 5_000;

/** The story, with writes broken (by `breakWrites`, which returns how to mend them) while the receiver has the alert. */
async function strandedSend(dir: string | undefined, breakWrites: (f: NonNullable<typeof fixture>) => () => void) {
  const logged: string[] = [];
  const f = (fixture = deliveryFixture(at('2026-11-21T10:00:00Z'), { timeoutMs: TIMEOUT_MS, log: (line) => logged.push(line) }, dir));
  let mend: (() => void) | undefined;
  hook = await new Receiver([
    (_request, res) => {
      mend ??= breakWrites(f);
      res.writeHead(200).end('ok');
    },
  ]).start();
  f.channel('webhook', { url: hook.url, secret: 'a-webhook-secret-of-some-length' });
  await f.failMonitor();
  const claimedAt = f.clock.now;

  await f.worker.runDue();
  expect(hook.requests).toHaveLength(1);
  // The receiver has it, but "sent" could not be written: the claim stands until its timeout.
  expect(f.deliveries()).toMatchObject([{ status: 'sending', attempts: 1 }]);

  mend!();
  f.clock.now = claimedAt + TIMEOUT_MS - 1;
  await f.worker.runDue();
  expect(hook.requests).toHaveLength(1);

  // The worker's next wake-up is then (it plans by earliestDue), and it sends again by itself.
  expect(f.store.deliveries.earliestDue()).toBe(claimedAt + TIMEOUT_MS);
  f.clock.now = claimedAt + TIMEOUT_MS;
  await f.worker.runDue();
  expect(hook.requests).toHaveLength(2);
  expect(hook.requests[1].headers['x-cronbeat-delivery']).toBe(hook.requests[0].headers['x-cronbeat-delivery']);
  expect(f.deliveries()).toMatchObject([{ status: 'sent', attempts: 2 }]);
  expect(logged.filter((line) => /cannot record the result/.test(line))).toHaveLength(1);
}

describe('a send whose result cannot be written', () => {
  it.skipIf(!smallDisk)('on a full disk (a real 8 MB tmpfs): the claim ends with the timeout and the worker sends again', async () => {
    const dir = join(smallDisk!, 'data');
    mkdirSync(dir);
    await strandedSend(dir, (f) => {
      // An empty write-ahead log, so the next commit needs new space.
      f.store.db.pragma('wal_checkpoint(TRUNCATE)');
      const filler = fillDisk(dir);
      return () => rmSync(filler);
    });
  });

  it('on a database that refuses writes (SQLITE_READONLY, no root needed): the same', async () => {
    await strandedSend(tempDir('cronbeat-delivery-'), (f) => {
      f.store.db.pragma('query_only = 1');
      return () => f.store.db.pragma('query_only = 0');
    });
  });
});
