import { describe, expect, it } from 'vitest';
import { MONITOR_LIST_MEMO_BYTES, monitorJsonMemo } from '../../agent/api/present/monitorJsonMemo';

/*
 * The list's memo on its own (agent/api/present/monitorJsonMemo.ts): what it answers from what it
 * kept, and that past MONITOR_LIST_MEMO_BYTES it keeps less rather than more. A row's text stands
 * for SQLite's JSON of its shown columns; a text of BIG characters is counted as 1 MiB.
 */

const ORIGIN = 'http://127.0.0.1:8787';
const BIG = 512 * 1024;
const bigText = (id: number) => `${id}`.padEnd(BIG, 'x');

type Memo = ReturnType<typeof monitorJsonMemo>;
interface Listed {
  /** Each row's answer from the memo, or null (made afresh). */
  answers: Array<Buffer | null>;
  /** The rows the memo asked to serialise. */
  serialised: number[];
}

/** One listing of rows 1..count (their texts by `textOf`), as the route asks it. */
function listing(memo: Memo, companyId: number, count: number, textOf: (id: number) => string, { origin = ORIGIN, everyRow = true, skip = [] as number[] } = {}): Listed {
  const listed = memo.listing(companyId, origin, everyRow);
  const serialised: number[] = [];
  const answers: Array<Buffer | null> = [];
  for (let id = 1; id <= count; id++) {
    if (skip.includes(id)) continue;
    answers.push(listed.answer(id, textOf(id), null, () => (serialised.push(id), Buffer.from(`{"id":${id}}`))));
  }
  listed.done();
  return { answers, serialised };
}
const keptCount = ({ answers }: Listed) => answers.filter((answer) => answer !== null).length;

describe('the monitor list memo', () => {
  it('answers a settled list from what it kept: made afresh, then serialised alone, then the same bytes', () => {
    const memo = monitorJsonMemo();
    const text = (id: number) => `{"id":${id}}`;
    const first = listing(memo, 1, 3, text);
    expect(first.answers).toEqual([null, null, null]);
    expect(first.serialised).toEqual([]);
    const second = listing(memo, 1, 3, text);
    expect(second.serialised).toEqual([1, 2, 3]);
    const third = listing(memo, 1, 3, text);
    expect(third.serialised).toEqual([]);
    third.answers.forEach((answer, i) => expect(answer).toBe(second.answers[i]));
  });

  it('makes afresh a changed row, every row through another origin, and a monitor an unfiltered list did not meet', () => {
    const memo = monitorJsonMemo();
    const text = (id: number) => `{"id":${id}}`;
    for (let i = 0; i < 2; i++) listing(memo, 1, 3, text);
    expect(listing(memo, 1, 3, (id) => (id === 2 ? '{"id":2,"renamed":true}' : text(id))).answers.map(Boolean)).toEqual([true, false, true]);
    // A filtered list forgets nothing; an unfiltered one forgets what it did not meet (a deleted monitor).
    listing(memo, 1, 3, text, { everyRow: false, skip: [1] });
    expect(listing(memo, 1, 3, text).answers.map(Boolean)).toEqual([true, true, true]);
    listing(memo, 1, 3, text, { skip: [1] });
    expect(listing(memo, 1, 3, text).answers.map(Boolean)).toEqual([false, true, true]);
    expect(keptCount(listing(memo, 1, 3, text, { origin: 'http://localhost:8787' }))).toBe(0);
  });

  it('keeps no more than MONITOR_LIST_MEMO_BYTES of one company: its later rows are made afresh each time', () => {
    const memo = monitorJsonMemo();
    const rows = Math.ceil((MONITOR_LIST_MEMO_BYTES / 2 ** 20) * 1.25);
    for (let i = 0; i < 3; i++) listing(memo, 1, rows, bigText);
    const settled = listing(memo, 1, rows, bigText);
    expect(keptCount(settled)).toBeGreaterThan(0);
    expect(keptCount(settled)).toBeLessThan(MONITOR_LIST_MEMO_BYTES / 2 ** 20);
    // The first rows kept, the rest never.
    expect(settled.answers.slice(0, keptCount(settled)).every(Boolean)).toBe(true);
  });

  it('forgets the companies listed longest ago when another needs the room', () => {
    const memo = monitorJsonMemo();
    // Two companies' rows fit, three do not.
    const share = Math.ceil(MONITOR_LIST_MEMO_BYTES / 2 ** 20 / 3);
    const settle = (companyId: number) => [1, 2].forEach(() => listing(memo, companyId, share, bigText));
    settle(1);
    settle(2);
    settle(1);
    // Company 3 needs the room of one: company 2, listed longest ago, goes.
    settle(3);
    expect(keptCount(listing(memo, 3, share, bigText))).toBe(share);
    expect(keptCount(listing(memo, 1, share, bigText))).toBe(share);
    expect(keptCount(listing(memo, 2, share, bigText))).toBe(0);
  });
});
