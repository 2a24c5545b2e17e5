/** Single-quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:,+@=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
