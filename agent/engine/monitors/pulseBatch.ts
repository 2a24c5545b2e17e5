import type { EngineContext } from '../engineContext';
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
 * committed, so a 200 always means it is in the run history. A pulse whose own writes fail
 * (rare: a reused idempotency key, a full disk) rolls its group back; then each pulse of the
 * group is stored alone, so only the failing one is rejected. That costs nothing while nothing
 * fails, where a savepoint per pulse cost about a tenth of a pulse's CPU time.
 */
export function createPulseRecorder(ctx: EngineContext) {
  let waiting: Waiting[] = [];

  type Outcome = StoredPulse | null | { error: unknown };
  const storeOne = ctx.store.db.transaction((pulse: ReceivedPulse, now: number) => storePulse(ctx, pulse, now));
  const storeGroup = ctx.store.db.transaction((group: Waiting[]): Outcome[] => group.map((item) => storePulse(ctx, item.pulse, item.now)));
  const storeEachAlone = (group: Waiting[]): Outcome[] =>
    group.map((item) => {
      try {
        return storeOne(item.pulse, item.now);
      } catch (error) {
        return { error };
      }
    });

  const flush = () => {
    const group = waiting;
    waiting = [];
    let outcomes: Outcome[];
    try {
      outcomes = storeGroup(group);
    } catch (error) {
      if (group.length === 1) return group[0].reject(error);
      outcomes = storeEachAlone(group);
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
