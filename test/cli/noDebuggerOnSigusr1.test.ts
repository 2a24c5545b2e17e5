import { afterAll, describe, expect, it } from 'vitest';
import { startServe, tempFolder, type ServeProcess } from '../helpers/cli';

/*
 * Node's default for SIGUSR1 opens its inspector on 127.0.0.1:9229, where any local user can run
 * code in the process: `cronbeat serve` (often a root service) did so on an admin's `pkill -USR1 -f
 * cronbeat` or `systemctl kill -s USR1`. Every command ignores it (`run` passes it to its job).
 */

let serve: ServeProcess | undefined;
afterAll(async () => {
  await serve?.stop();
});

describe('SIGUSR1 sent to cronbeat serve', () => {
  it('opens no debugger, and the agent goes on answering', async () => {
    serve = await startServe(['--data-dir', tempFolder(), '--no-popups']);
    let stderr = '';
    serve.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    serve.child.kill('SIGUSR1');
    const answered = await fetch(`${serve.url}/api/health`);
    expect(answered.status).toBeLessThan(500);
    expect(serve.child.exitCode).toBeNull();
    // Stopped after it: whatever the signal started has said so by the end (stderr read to its close).
    const closed = new Promise((done) => serve!.child.once('close', done));
    expect(await serve.stop()).toBe(0);
    await closed;
    serve = undefined;
    expect(stderr).not.toMatch(/Debugger|inspector/i);
  });
});
