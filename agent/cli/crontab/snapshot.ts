import { createHash } from 'node:crypto';
import { maskSecrets } from './mask';
import { jobsOf, type CrontabLine } from './parse';

/** One cron job as the watcher remembers it: who runs it, what it says (masked), and a hash of the real line. */
export interface SnapshotJob {
  source: string;
  user: string;
  /** Schedule and command with secrets masked: what an alert shows. */
  text: string;
  /** SHA-256 of the unmasked schedule and command, so a changed secret is still a change. */
  hash: string;
}

export type ChangeKind = 'added' | 'removed' | 'altered';

export interface CrontabChange {
  kind: ChangeKind;
  user: string;
  /** The job's line now (for removed: as it was). */
  text: string;
  /** For altered: the line before. */
  previous: string | null;
}

/** The snapshot entries of one parsed crontab; `owner` is the user of a user crontab. */
export function snapshotJobs(source: string, owner: string | null, lines: CrontabLine[]): SnapshotJob[] {
  return jobsOf(lines).map((job) => {
    const command = job.command.trim();
    return {
      source,
      user: job.user ?? owner ?? 'unknown',
      text: `${job.written} ${maskSecrets(command)}`,
      hash: createHash('sha256').update(`${job.written}\0${command}`).digest('hex'),
    };
  });
}

/**
 * What changed between two snapshots, per crontab and user, in line order. Jobs that are in
 * both (by hash) are unchanged; a removed job and an added one of the same crontab and user
 * pair up as one altered job, so an edited line raises one change, not two.
 */
export function diffSnapshots(before: SnapshotJob[], after: SnapshotJob[]): CrontabChange[] {
  const changes: CrontabChange[] = [];
  const groups = new Set([...before, ...after].map(groupOf));
  for (const group of groups) {
    const removed = withoutCommon(before.filter((job) => groupOf(job) === group), after.filter((job) => groupOf(job) === group));
    const added = withoutCommon(after.filter((job) => groupOf(job) === group), before.filter((job) => groupOf(job) === group));
    const paired = Math.min(removed.length, added.length);
    for (let i = 0; i < paired; i++) changes.push({ kind: 'altered', user: added[i].user, text: added[i].text, previous: removed[i].text });
    for (const job of added.slice(paired)) changes.push({ kind: 'added', user: job.user, text: job.text, previous: null });
    for (const job of removed.slice(paired)) changes.push({ kind: 'removed', user: job.user, text: job.text, previous: null });
  }
  return changes;
}

function groupOf(job: SnapshotJob): string {
  return `${job.source}\0${job.user}`;
}

/** The jobs of `list` not matched one-for-one by a job with the same hash in `other`. */
function withoutCommon(list: SnapshotJob[], other: SnapshotJob[]): SnapshotJob[] {
  const left = new Map<string, number>();
  for (const job of other) left.set(job.hash, (left.get(job.hash) ?? 0) + 1);
  return list.filter((job) => {
    const count = left.get(job.hash) ?? 0;
    if (count === 0) return true;
    left.set(job.hash, count - 1);
    return false;
  });
}
