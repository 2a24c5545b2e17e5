/**
 * Polls `read` every 20 ms until it gives a value (returned), or fails naming `what` after `ms`:
 * a bound for something that will happen, not a wait, so it is as wide as a busy machine needs
 * (as expect.poll's in test/vitest.config.ts).
 */
export async function until<T>(read: () => T | undefined | null | false, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
