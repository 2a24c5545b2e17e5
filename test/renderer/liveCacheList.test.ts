import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { Api } from '../../renderer/src/api/endpoints';
import type { Monitor } from '../../renderer/src/api/types';
import { LiveCache } from '../../renderer/src/lib/liveCache';
import { keys } from '../../renderer/src/lib/queries';

/*
 * Many monitors changing at once (a burst of failures) makes the dashboard read its list again.
 * When a read of the list is already under way (the page's first, 6 MB at 10,000 monitors), asking
 * again only joined it, and the changes it may have been read before were lost until the next
 * safety poll (this test failed so). Now that read lands (its rows are painted), then the list is
 * read once more.
 */

let stop: () => void = () => {};
afterEach(() => stop());

const monitor = (id: number) => ({ id, name: `job ${id}` }) as Monitor;

describe('the live cache and a list read under way', () => {
  it('lets the read under way land, then reads the list again', async () => {
    const client = new QueryClient();
    const reads: Array<{ resolve: (list: Monitor[]) => void; aborted: () => boolean }> = [];
    const observer = new QueryObserver(client, {
      queryKey: keys.monitors,
      queryFn: ({ signal }) => new Promise<Monitor[]>((resolve) => reads.push({ resolve, aborted: () => signal.aborted })),
    });
    const unsubscribe = observer.subscribe(() => {});
    // Nothing but the list is on screen, so a burst goes to the list (never to single reads).
    const cache = new LiveCache(client, {} as Api);
    stop = () => {
      cache.stop();
      unsubscribe();
      client.clear();
    };
    await expect.poll(() => reads.length).toBe(1);

    for (let id = 1; id <= 41; id++) cache.handle({ type: 'monitor.changed', monitorId: id });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(reads.length, 'no second read while the first is under way').toBe(1);
    expect(reads[0]!.aborted(), 'the first read is not cancelled').toBe(false);

    reads[0]!.resolve([monitor(1), monitor(2)]);
    await expect.poll(() => client.getQueryData<Monitor[]>(keys.monitors)?.length).toBe(2);
    // It may have started before those changes: the list is read once more.
    await expect.poll(() => reads.length).toBe(2);
    reads[1]!.resolve([monitor(1), monitor(2), monitor(3)]);
    await expect.poll(() => client.getQueryData<Monitor[]>(keys.monitors)?.length).toBe(3);
  });
});
