import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/**
 * A real agent for the file's discover tests, and the stable folder discover installs its entry
 * point in (never under /tmp: discover refuses that), as CRONBEAT_SHIM_DIR; both go after the file.
 */
export function discoverAgent(): { agent: () => TestAgent; shimDir: string } {
  let agent: TestAgent | undefined;
  const shimDir = mkdtempSync('/var/lib/cronbeat-test-');
  process.env.CRONBEAT_SHIM_DIR = shimDir;
  beforeAll(async () => {
    agent = await startTestAgent();
  });
  afterAll(async () => {
    await agent?.stop();
    rmSync(shimDir, { recursive: true, force: true });
  });
  return { agent: () => agent!, shimDir };
}
