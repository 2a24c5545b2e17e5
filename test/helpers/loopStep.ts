import type { OverdueFailer } from '../../agent/engine/failOverdue';

/** The monitor loop's step, as the loop runs it, with every slice at `now`; resolves when it ends, rejects with what stopped it. */
export function stepAt(failer: OverdueFailer, now: number): Promise<void> {
  return new Promise((resolve, reject) => {
    failer.step({ clock: () => now }, (error) => (error === undefined ? resolve() : reject(error)));
  });
}
