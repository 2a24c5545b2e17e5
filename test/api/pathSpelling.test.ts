import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutes } from '../helpers/appRoutes';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * The spec's paths are spelt one way. Routes were matched in any letter case, so `/API/servers`
 * listed the servers while `/API/nothing` got the dashboard's page (or its 503 in plain text, not
 * JSON), `GET /api/Servers/alert` looked for the server "alert" instead of answering 405, and a
 * page's URLs repeated whatever case the client typed. Laravel's routes match in their own case
 * only; so do these now, and any spelling of /api that names no route is the API's JSON 404.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
  await agent.api('/api/servers', { method: 'POST', json: { name: 'Backup box', ip_address: '10.0.0.1', identifier: 'backup-01' } });
});
afterAll(() => agent.stop());

const notFound = async (response: Response, what: string) => {
  expect(response.status, what).toBe(404);
  expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
  expect(await response.json(), what).toEqual({ message: 'Not found.' });
};

describe('paths in another letter case', () => {
  it.each(['/API/servers', '/Api/monitors', '/api/Servers', '/api/NOTIFICATIONS', '/api/servers/1/ALERTS', '/API/nothing', '/API', '/api/Health'])(
    'GET %s is the API 404, in JSON',
    async (path) => {
      await notFound(await agent.api(path), path);
    },
  );

  it('POST /api/Servers/alert raises nothing, and GET /api/servers/alert is still a 405', async () => {
    const response = await agent.api('/api/Servers/alert', { method: 'POST', json: { username: 'root', server_id: 'backup-01', command: 'x' } });
    await notFound(response, 'POST /api/Servers/alert');
    expect(agent.store.db.prepare('SELECT COUNT(*) AS n FROM server_alerts').get()).toEqual({ n: 0 });
    const rightCase = await agent.api('/api/servers/alert');
    expect(rightCase.status).toBe(405);
    expect(rightCase.headers.get('allow')).toBe('POST');
  });

  it('every route of the app, its letters upper-cased, names no route', async () => {
    const seen = new Set<string>();
    for (const { method, path } of appRoutes(agent)) {
      if (!path.startsWith('/api/')) continue;
      const upper = path.replace(/:[a-z_]+/gi, '1').toUpperCase();
      if (seen.has(`${method} ${upper}`)) continue;
      seen.add(`${method} ${upper}`);
      await notFound(await agent.api(upper, { method, json: method === 'GET' ? undefined : {} }), `${method} ${upper}`);
    }
    expect(seen.size).toBeGreaterThan(30);
  });
});

describe('a path with a trailing slash', () => {
  it('is the same list, and its page URLs name the path without the slash, as Laravel\'s request URL does', async () => {
    const plain = await (await agent.api('/api/notifications?per_page=5')).json();
    const slashed = await agent.api('/api/notifications/?per_page=5');
    expect(slashed.status).toBe(200);
    const page = await slashed.json();
    expect(page.path).toBe(`${agent.url}/api/notifications`);
    expect(page.first_page_url).toBe(`${agent.url}/api/notifications?per_page=5&page=1`);
    expect(page).toEqual(plain);
  });
});
