import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, tempFolder } from '../helpers/cli';

/*
 * A --url that leads to no Cronbeat API: one with a path the agent does not serve (a proxy's
 * sub-path typed wrong) answers with the dashboard's page, and one with a query or a fragment
 * (`http://host:8787?x=1`, `…#frag`) turned every request into one for that page. The CLI printed
 * JSON.parse's "Unexpected token '<'"; it says what answered, and a query or fragment is refused.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const env = () => ({ CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: tempFolder() });

describe('a --url where no Cronbeat API answers', () => {
  it('a path that serves a web page: says so in one line, exit 1', async () => {
    const result = await runCli(['monitor', 'list', '--url', `${agent.url}/cronbeat`], { env: env() });
    expect(result.stderr).toBe(
      `cronbeat: ${agent.url}/cronbeat answered GET /api/monitors with text/html, not JSON: no Cronbeat API is there; check --url (or CRONBEAT_URL).\n`,
    );
    expect(result.status).toBe(1);
  });

  for (const [what, suffix] of [
    ['a query', '?x=1'],
    ['a fragment', '#frag'],
  ]) {
    it(`${what}: refused in one line, exit 2`, async () => {
      const result = await runCli(['monitor', 'list', '--url', `${agent.url}${suffix}`], { env: env() });
      expect(result.stderr).toBe(`cronbeat: --url "${agent.url}${suffix}" has ${what} (${suffix}): give the agent's address alone, such as http://127.0.0.1:8787\n`);
      expect(result.status).toBe(2);
    });
  }

  it('CRONBEAT_URL with a query: run still runs its job, and says why it is not monitored', async () => {
    const result = await runCli(['run', '0b3c7a2e-8f7d-4a55-9b8e-3d2f1c0a9e11', '--', '/bin/sh', '-c', 'echo ran; exit 4'], { env: { ...env(), CRONBEAT_URL: `${agent.url}?x=1` } });
    expect(result.stdout).toBe('ran\n');
    expect(result.status).toBe(4);
    expect(result.stderr).toBe(`cronbeat: not monitoring this run: CRONBEAT_URL "${agent.url}?x=1" has a query (?x=1): give the agent's address alone, such as http://127.0.0.1:8787\n`);
  });
});
