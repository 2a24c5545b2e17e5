import { app } from 'electron';

/**
 * Claims the single-instance lock. Returns false in a second launch, which should quit at once;
 * the first instance then runs `onSecondLaunch` (bring its window forward).
 */
export function claimSingleInstance(onSecondLaunch: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => onSecondLaunch());
  return true;
}
