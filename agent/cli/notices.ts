/** Prints one-line notices on stderr, each `cronbeat: …` (cron mails them with the job's output). */
export function printNotices(lines: string[]): void {
  for (const line of lines) console.error(`cronbeat: ${line}`);
}
