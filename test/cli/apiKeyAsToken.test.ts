import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli';

// Real node processes; no agent is needed: the key is recognised before anything is sent.
vi.setConfig({ testTimeout: 30_000 });

const KEY = 'cb_9f2c4e1a7b3d5f60secretpart';
const env = { CRONBEAT_URL: 'http://127.0.0.1:9' };

describe('an API key where a monitor token goes', () => {
  it('cronbeat ping says it is a ping key and to use --name, without printing the key', async () => {
    const ping = await runCli(['ping', KEY], { env });
    expect(ping.status).toBe(2);
    expect(ping.stderr).toContain('"cb_…" is an API key (a ping key), not a monitor\'s token: put it in CRONBEAT_API_TOKEN and use `cronbeat run --name NAME`');
    expect(ping.stderr).not.toContain('secretpart');
  });

  it('cronbeat run runs the job anyway and says the same in its one line', async () => {
    const run = await runCli(['run', KEY, '--', 'sh', '-c', 'echo ran'], { env });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('ran\n');
    expect(run.stderr).toContain('not monitoring this run: "cb_…" is an API key (a ping key), not a monitor\'s token');
    expect(run.stderr).toContain('cronbeat run --name NAME --schedule CRON -- COMMAND');
    expect(run.stderr).not.toContain('secretpart');
  });
});
