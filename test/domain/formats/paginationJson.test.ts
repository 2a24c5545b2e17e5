import { describe, expect, it } from 'vitest';
import { paginationEnvelope, type EnvelopeInput } from '../../../agent/domain/formats/pagination';
import { paginationEnvelopeJson } from '../../../agent/domain/formats/paginationJson';

const path = 'http://127.0.0.1:8787/api/notifications';
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, text: `row "${i}" \u2028 é` }));

describe('paginationEnvelopeJson is exactly JSON.stringify(paginationEnvelope(…))', () => {
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
