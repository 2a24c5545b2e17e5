/** Polls `read` every 20 ms until it gives a value (returned), or fails naming `what` after `ms`. */
export async function until<T>(read: () => T | undefined | null | false, what: string, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
