import { useEffect, useRef } from 'react';

/**
 * A button disabled while its action runs loses the focus (the browser drops it to the page), so
 * a keyboard user would start over from the top: when `busy` ends with the focus nowhere, it goes
 * back to the button. Returns the ref to put on it.
 */
export function useKeepFocus<T extends HTMLElement>(busy: boolean) {
  const ref = useRef<T>(null);
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy && (document.activeElement === null || document.activeElement === document.body)) ref.current?.focus();
    wasBusy.current = busy;
  }, [busy]);
  return ref;
}
