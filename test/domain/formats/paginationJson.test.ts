import { describe, expect, it } from 'vitest';
import { paginationEnvelope, type EnvelopeInput } from '../../../agent/domain/formats/pagination';
import { MOST_LINK_CHARACTERS_IN_ONE_STRING, paginationEnvelopeText } from '../../../agent/domain/formats/paginationJson';

/** The envelope's text, its parts joined when it comes in parts. */
const paginationEnvelopeJson = (input: EnvelopeInput<unknown>) => {
  const text = paginationEnvelopeText(input);
  return typeof text === 'string' ? text : [...text].join('');
};

const path = 'http://127.0.0.1:8787/api/notifications';
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, text: `row "${i}" \u2028 é` }));

describe('the envelope\'s text is exactly JSON.stringify(paginationEnvelope(…))', () => {
  const cases: Array<[string, EnvelopeInput<unknown>]> = [
    ['empty list', { data: [], total: 0, request: { page: 1, perPage: 10 }, path }],
    ['one page', { data: rows(3), total: 3, request: { page: 1, perPage: 10 }, path }],
    ['first of many, per_page kept', { data: rows(10), total: 25, request: { page: 1, perPage: 10 }, path, keptQuery: { per_page: '10' } }],
    ['middle page', { data: rows(10), total: 25, request: { page: 2, perPage: 10 }, path }],
    ['last page', { data: rows(5), total: 25, request: { page: 3, perPage: 10 }, path, keptQuery: { per_page: '10' } }],
    ['past the end', { data: [], total: 25, request: { page: 9, perPage: 10 }, path }],
    ['odd host', { data: rows(1), total: 11, request: { page: 11, perPage: 1 }, path: 'http://[::1]:80/api/"x"', keptQuery: { per_page: '1' } }],
    ['page key kept first', { data: [], total: 30, request: { page: 2, perPage: 10 }, path, keptQuery: { page: '7', per_page: '10' } }],
  ];
  for (const [name, input] of cases) {
    it(name, () => expect(paginationEnvelopeJson(input)).toBe(JSON.stringify(paginationEnvelope(input))));
  }

  it('stays exact when the remembered list is reused for other pages and then replaced', () => {
    for (const page of [1, 500, 1000, 1001, 2, 1000]) {
      const input = { data: rows(2), total: 10_000, request: { page, perPage: 10 }, path };
      expect(paginationEnvelopeJson(input)).toBe(JSON.stringify(paginationEnvelope(input)));
    }
    const other = { data: rows(2), total: 95, request: { page: 3, perPage: 10 }, path };
    expect(paginationEnvelopeJson(other)).toBe(JSON.stringify(paginationEnvelope(other)));
  });
});

describe('the envelope of a list of very many pages', () => {
  it('comes in parts of about a megabyte, which add up to exactly the envelope', () => {
    // Links of about a thousand characters each: 16,000 of them are more than one string is made of.
    const longPath = `${path}/${'a'.repeat(1_000)}`;
    const pages = Math.ceil(MOST_LINK_CHARACTERS_IN_ONE_STRING / 1_000);
    for (const page of [1, 9_000, pages, pages + 1]) {
      const input = { data: page <= pages ? rows(1) : [], total: pages, request: { page, perPage: 1 }, path: longPath, keptQuery: { per_page: '1' } };
      const text = paginationEnvelopeText(input);
      expect(typeof text).not.toBe('string');
      const parts = [...(text as Iterable<string>)];
      expect(Math.max(...parts.map((part) => part.length))).toBeLessThan(12_000_000);
      expect(parts.join('')).toBe(JSON.stringify(paginationEnvelope(input)));
    }
  });

  it('is made even where no string could hold it (past half a billion characters), one part at a time', () => {
    // A long kept query in every page URL: 300,000 pages of about 1,900 characters each.
    const input = { data: rows(1), total: 300_000, request: { page: 2, perPage: 1 }, path, keptQuery: { per_page: '1', q: 'x'.repeat(1_800) } };
    const link = (n: number) => `{"url":"${path}?per_page=1&q=${'x'.repeat(1_800)}&page=${n}","label":"${n}","active":${n === 2}}`;
    let length = 0;
    let longest = 0;
    const parts: string[] = [];
    for (const part of paginationEnvelopeText(input) as Iterable<string>) {
      length += part.length;
      longest = Math.max(longest, part.length);
      // Only the opening, the first pages and the closing are kept to look at.
      parts.push(parts.length < 2 || part.length < 100_000 ? part : part.slice(-5_000));
    }
    expect(length).toBeGreaterThan(2 ** 29);
    expect(longest).toBeLessThan(20_000_000);
    expect(parts[0]).toMatch(/^\{"current_page":2,"data":\[.*\],"first_page_url":.*,"links":\[\{"url":".*page=1","label":"&laquo; Previous","active":false\}$/s);
    expect(parts[1].startsWith(`,${link(1)},${link(2)},${link(3)}`)).toBe(true);
    expect(parts.at(-2)!.endsWith(`,${link(300_000)}`)).toBe(true);
    expect(parts.at(-1)).toMatch(/^,\{"url":".*page=3","label":"Next &raquo;","active":false\}\],"next_page_url":.*"to":2,"total":300000\}$/);
    expect(parts).toHaveLength(32);
  });
});
