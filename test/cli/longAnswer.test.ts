import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';

/*
 * An agent (or what poses as one) that answers with an error message of megabytes: the CLI
 * quoted it whole, one line of megabytes on a terminal or in cron mail. The message is cut, and
 * says by how much.
 */

let close: () => void = () => {};
afterEach(() => close());

async function longWinded(status: number): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `bad ${'x'.repeat(2_000_000)}` }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('an error message of megabytes', () => {
  it('monitor list (422) prints one short line', async () => {
    const url = await longWinded(422);
    const result = await runCli(['monitor', 'list', '--url', url], { env: { CRONBEAT_API_TOKEN: 'cb_x' } });
    expect(result.status).toBe(1);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stderr.length).toBeLessThan(2_000);
    expect(result.stderr).toMatch(/bad x+… \(1,99\d,\d{3} more characters\)/);
  });

  it('ping (a 503, kept in the spool) prints one short line', async () => {
    const url = await longWinded(503);
    const result = await runCli(['ping', '0b3c7a2e-8f7d-4a55-9b8e-3d2f1c0a9e11', '--url', url, '--data-dir', tempFolder()]);
    expect(result.status).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stderr.length).toBeLessThan(2_000);
  });
});
