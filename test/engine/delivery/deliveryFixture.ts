import { DeliveryWorker, type DeliveryWorkerOptions } from '../../../agent/engine/delivery/worker';
import type { ChannelKind } from '../../../agent/contract/channels';
import type { QuietHours } from '../../../agent/domain/channels/delivery';
import { at, engineFixture } from '../engineFixture';

/**
 * The engine fixture plus a delivery worker whose clock the test moves (`fixture.now = …`):
 * runDue() is one pass of the worker, awaited, so retries and backoff need no sleeping. The
 * database is in a temporary folder, or in `dir`.
 */
export function deliveryFixture(start = at('2026-11-21T10:00:00Z'), options: Partial<DeliveryWorkerOptions> = {}, dir?: string) {
  const engine = engineFixture(start, dir);
  const clock = { now: start };
  const worker = new DeliveryWorker({
    store: engine.store,
    events: engine.events,
    notifier: engine.notifier,
    clock: () => clock.now,
    log: () => {},
    dashboardUrl: () => 'http://cronbeat.test:8787',
    timeoutMs: 2000,
    ...options,
  });
  return {
    ...engine,
    clock,
    worker,
    channel(kind: ChannelKind, settings: Record<string, unknown>, quietHours: QuietHours | null = null, name = `${kind} channel`) {
      return engine.store.channels.create({ companyId: 1, name, kind, settings, quietHours, now: clock.now });
    },
    /** A monitor that fails at once (its run was due before `clock.now`): the failure notification and its deliveries. */
    async failMonitor(name = 'backup') {
      const monitor = engine.monitor({ name, schedule: '* * * * *', duration: 1, now: clock.now - 10 * 60_000 });
      await engine.step(clock.now);
      return monitor;
    },
    deliveries() {
      return engine.store.db.prepare('SELECT * FROM deliveries ORDER BY id').all() as Array<{
        id: number;
        uuid: string;
        channel_id: number;
        notification_id: string;
        status: string;
        attempts: number;
        next_attempt_at: number | null;
        last_error: string | null;
        sent_at: number | null;
      }>;
    },
    async close() {
      await worker.stop();
      engine.close();
    },
  };
}
