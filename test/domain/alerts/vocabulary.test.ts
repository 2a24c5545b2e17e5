import { describe, expect, it } from 'vitest';
import { PROBLEM_WORDS, problemOf, reasonPieces } from '../../../agent/domain/alerts/vocabulary';

const at = (iso: string) => ({ at: Date.parse(iso) });

describe('the one vocabulary', () => {
  it('says failed for what the job said, missed for a run that did not come, stuck for a run too long or never ended', () => {
    expect(problemOf({ kind: 'failed', exit_code: 3 })).toBe('failed');
    expect(problemOf({ kind: 'missed', expected_at: '2026-11-21T14:02:00Z', grace_minutes: 5, resumed_at: null })).toBe('missed');
    expect(problemOf({ kind: 'stuck', started_at: '2026-11-21T13:22:00Z', max_runtime_minutes: 10, resumed_at: null })).toBe('stuck');
    expect(problemOf({ kind: 'not_finished', started_at: '2026-11-21T13:22:00Z', grace_minutes: 1, resumed_at: null })).toBe('stuck');
    expect(problemOf({ kind: 'recovered', failed_since: null, exit_code: 0 })).toBeNull();
    expect(Object.values(PROBLEM_WORDS).map((w) => w.meaning)).toEqual(['the job said so', 'no run came', 'a run is taking too long']);
  });

  it('names the run that did not come and the last one that did, or says none has come yet', () => {
    const missed = { kind: 'missed', expected_at: '2026-11-21T14:02:00Z', grace_minutes: 5, resumed_at: null } as const;
    expect(reasonPieces({ ...missed, last_run_at: '2026-11-21T13:02:00Z' })).toEqual([
      'Missed: ', 'the run due ', at('2026-11-21T14:02:00Z'), ' did not come (grace 5 min)', '; last run ', at('2026-11-21T13:02:00Z'),
    ]);
    expect(reasonPieces({ ...missed, last_run_at: null }).at(-1)).toBe('; no run has come yet');
    // A failure raised before the last run was kept says nothing of it rather than "none".
    expect(reasonPieces(missed).at(-1)).toBe(' did not come (grace 5 min)');
  });

  it('says "never finished" only for a start whose end never came, with the run it outlived when known', () => {
    const reason = { kind: 'not_finished', started_at: '2026-11-21T13:22:00Z', grace_minutes: 1, resumed_at: null } as const;
    expect(reasonPieces(reason, Date.parse('2026-11-21T13:30:00Z'))).toEqual([
      'Stuck: ', 'started ', at('2026-11-21T13:22:00Z'), ' and never finished', ': the run due ', at('2026-11-21T13:30:00Z'), ' did not come either (grace 1 min)',
    ]);
    expect(reasonPieces({ kind: 'stuck', started_at: '2026-11-21T13:22:00Z', max_runtime_minutes: 10, resumed_at: null }).join('')).not.toContain('never finished');
  });
});
