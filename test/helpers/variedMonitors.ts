import type { Store } from '../../agent/db/store';
import type { MonitorReason } from '../../agent/domain/alerts/alert';

/** Names and texts JSON must carry exactly: quotes, backslashes, control characters, NUL, U+2028, accents, emoji. */
export const ODD_TEXTS = ['plain', 'quote " and \\ backslash', 'tab\tnew\nline\r\u0001\u001f\u007f', 'nul\u0000inside', 'line\u2028separator', 'éàü ĳ 日本語', 'emoji 😀🚀', '', ' '];

const at = (ms: number) => new Date(ms).toISOString();
/** Failures kept as data on some monitors (by their number modulo 12). */
const REASONS: Partial<Record<number, (ms: number, i: number) => MonitorReason>> = {
  7: (_, i) => ({ kind: 'failed', exit_code: i % 256 }),
  9: (ms, i) => ({ kind: 'missed', expected_at: at(ms), grace_minutes: i % 30, resumed_at: null, last_run_at: i % 2 ? null : at(ms - 3_600_000) }),
  11: (ms) => ({ kind: 'stuck', started_at: at(ms), max_runtime_minutes: 30, resumed_at: at(ms - 60_000) }),
};

/** Monitors with every shown column varied: nulls, big integers, reals (columns keep what they are given), odd text, JSON columns. */
export function seedVariedMonitors(store: Store, count: number, companyId = 1, now = Date.parse('2026-11-25T10:00:00Z')): void {
  store.companies.ensure(companyId, now);
  const vary = store.db.prepare(
    `UPDATE monitors SET is_alerted = @alerted, alert_reason = @words, alert_reason_data = @data, paused_at = @paused, paused_until = @until,
       last_pulse_at = @pulse, running_since = @running, resumed_at = @resumed, slug = @slug, tags = @tags, alert_after = @after,
       failures = @failures, flapping = @flapping WHERE id = @id`,
  );
  for (let i = 0; i < count; i++) {
    const { id } = store.monitors.create({
      companyId, name: `${ODD_TEXTS[i % ODD_TEXTS.length]} ${i}`, projectId: i % 3 === 0 ? null : i % 7 === 0 ? Number.MAX_SAFE_INTEGER : i,
      token: `token-${companyId}-${i}`, timezone: i % 2 ? 'Europe/Paris' : 'America/New_York', schedule: `${i % 60} * * * *`, duration: 5 + i,
      maxRuntime: i % 4 === 0 ? 30 : null, expectedRunAt: now + i, dueAt: i % 5 === 0 ? null : now + 60_000 * i, now,
    });
    vary.run({
      id, alerted: i % 6 === 1 ? 1 : 0, words: i % 12 === 1 ? `kept words ${ODD_TEXTS[i % ODD_TEXTS.length]}` : '',
      data: REASONS[i % 12] === undefined ? null : JSON.stringify(REASONS[i % 12]!(now - i * 1000, i)),
      paused: i % 8 === 2 ? now - 1000 : null, until: i % 16 === 2 ? now + 3_600_000 : null,
      // A real where an integer is expected: the column keeps it as a real, and the list must give it back as one.
      pulse: i % 9 === 0 ? null : i % 9 === 4 ? now + 0.5 : now - i, running: i % 10 === 3 ? now - 5 : null, resumed: i % 11 === 5 ? now - 9 : null,
      slug: i % 4 === 1 ? `job-${i}` : null, tags: i % 3 === 1 ? 'nightly prod' : '', after: i % 5 === 2 ? 3 : 1,
      failures: i % 5 === 2 ? `[${now - 60_000},${now}]` : '[]', flapping: i % 13 === 0 ? JSON.stringify({ changes: [now], since: now, count: 4 }) : null,
    });
  }
}

