import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MOST_LINK_CHARACTERS_IN_ONE_STRING } from '../../agent/domain/formats/paginationJson';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * The spec's envelope names every page in `links`. A list of very many pages (a million
 * notifications at one a page) was made as one string: over 100 MB held by the agent, and past
 * a few million entries more than a string can hold, so the request failed with a 500. Now such
 * an envelope is streamed a part at a time; its bytes are the same.
 */

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.stop();
  agent = undefined;
});


/** More failures than fit one string's links at one a page (each link its URL and 40 characters more). */
const rowsFor = (a: TestAgent) => Math.ceil(MOST_LINK_CHARACTERS_IN_ONE_STRING / (`${a.url}/api/notifications?per_page=1&page=`.length + 40)) + 1_000;

/** `rows` failures of one monitor: one by a real pulse, the rest bare copies of it a millisecond apart (only a page's row is presented, so they carry no words: a third of the time to write). */
async function plantFailures(a: TestAgent, rows: number): Promise<void> {
  const monitor = await (await a.api('/api/monitors', { method: 'POST', json: { name: 'nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
  expect((await fetch(`${a.url}/api/pulse/${monitor.token}/fail`)).status).toBe(200);
  a.store.db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, alert, created_at, updated_at)
       SELECT printf('00000000-0000-7000-8000-%012d', i), f.type, f.notifiable_type, f.notifiable_id, '{}', NULL,
              f.created_at - i, f.updated_at - i
       FROM n, (SELECT * FROM notifications LIMIT 1) AS f`,
    )
    .run(rows - 1);
}

/**
 * A request on a connection of its own. Reading the envelope's millions of links holds this
 * process for seconds, past the agent's keep-alive time: fetch, whose own idle timer could not run
 * meanwhile, then sent the next request on the connection the agent was closing (ECONNRESET).
 */
function onItsOwn(url: string, method: 'GET' | 'HEAD', token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, agent: false, headers: { authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject).end();
  });
}

describe('GET /api/notifications with more pages than one string is made of', () => {
  it('streams the envelope, every page named, the page asked for active; a HEAD gets the headers alone', async () => {
    agent = await startTestAgent();
    const ROWS = rowsFor(agent);
    await plantFailures(agent, ROWS);
    const response = await agent.api('/api/notifications?per_page=1&page=2');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-length')).toBeNull();
    const page = JSON.parse(await response.text());
    expect(page.total).toBe(ROWS);
    expect(page.last_page).toBe(ROWS);
    expect(page.data).toHaveLength(1);
    expect(page.data[0].id).toBe('00000000-0000-7000-8000-000000000001');
    expect(page.links).toHaveLength(ROWS + 2);
    expect(page.links.filter((link: { active: boolean }) => link.active).map((link: { label: string }) => link.label)).toEqual(['2']);
    const url = (n: number) => `${agent!.url}/api/notifications?per_page=1&page=${n}`;
    expect(page.links[0]).toEqual({ url: url(1), label: '&laquo; Previous', active: false });
    expect(page.links[ROWS]).toEqual({ url: url(ROWS), label: String(ROWS), active: false });
    expect(page.links[ROWS + 1]).toEqual({ url: url(3), label: 'Next &raquo;', active: false });
    expect(page.next_page_url).toBe(url(3));
    expect(Object.keys(page)).toEqual([
      'current_page', 'data', 'first_page_url', 'from', 'last_page', 'last_page_url', 'links', 'next_page_url', 'path', 'per_page', 'prev_page_url', 'to', 'total',
    ]);

    // A HEAD of it: the headers alone, and the agent goes on answering after it.
    const head = await onItsOwn(`${agent.url}/api/notifications?per_page=1`, 'HEAD', agent.token);
    expect(head).toEqual({ status: 200, body: '' });
    expect(JSON.parse((await onItsOwn(`${agent.url}/api/notifications/count`, 'GET', agent.token)).body)).toEqual({ total: ROWS });
  });
});
