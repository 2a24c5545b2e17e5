import type { EngineContext } from './engineContext';
import { announcePulse, storePulse, type ReceivedPulse, type StoredPulse } from './pulses';

interface Waiting {
  pulse: ReceivedPulse;
  now: number;
  resolve(found: boolean): void;
  reject(error: unknown): void;
}

/**
 * Records pulses in groups: every pulse that arrives during one turn of the event loop is
 * stored in one transaction, so a burst of pulses costs one commit (one WAL write) instead of
 * one each, which halved the cost of a pulse. Each pulse still answers only once its group has
 * committed, so a 200 always means it is in the run history. A pulse whose own writes fail is
 * rolled back alone (a savepoint) and rejected; the others of its group are kept.
 */
export function createPulseRecorder(ctx: EngineContext) {
  let waiting: Waiting[] = [];

  const storeOne = ctx.store.db.transaction((pulse: ReceivedPulse, now: number) => storePulse(ctx, pulse, now));
  const storeGroup = ctx.store.db.transaction((group: Waiting[]) =>
    group.map((item): StoredPulse | null | { error: unknown } => {
      try {
        return storeOne(item.pulse, item.now);
      } catch (error) {
        return { error };
      }
    }),
  );

  const flush = () => {
    const group = waiting;
    waiting = [];
    let outcomes: Array<StoredPulse | null | { error: unknown }>;
    try {
      outcomes = storeGroup(group);
    } catch (error) {
      for (const item of group) item.reject(error);
      return;
    }
    outcomes.forEach((outcome, index) => {
      const item = group[index];
      if (outcome && 'error' in outcome) return item.reject(outcome.error);
      if (outcome) announcePulse(ctx, outcome);
      item.resolve(outcome !== null);
    });
  };

  return {
    /** Resolves true once the pulse is stored, false when no live monitor has its token. */
    record(pulse: ReceivedPulse, now: number): Promise<boolean> {
      return new Promise((resolve, reject) => {
        waiting.push({ pulse, now, resolve, reject });
        if (waiting.length === 1) setImmediate(flush);
      });
    },
  };
}

export type PulseRecorder = ReturnType<typeof createPulseRecorder>;
