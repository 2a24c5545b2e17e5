/** What a server's watcher saw happen to a cron job. */
export const CRON_CHANGES = ['added', 'removed', 'altered'] as const;
export type CronChange = (typeof CRON_CHANGES)[number];

export interface AlertedServer {
  id: number;
  name: string;
  identifier: string;
}

export interface CronChangeReport {
  username: string;
  command: string;
  change: CronChange;
  previousCommand: string | null;
}
