import { describe, expect, it } from 'vitest';
import { watchTarget } from '../../renderer/src/lib/reach';

const loopbackAgent = { host: '127.0.0.1', port: 8787, loopback_only: true, remote_urls: ['http://192.0.2.2:8787', 'http://laptop:8787'] };

describe('the agent URL a server should use', () => {
  it('is the page origin when the dashboard was opened from another machine', () => {
    expect(watchTarget(undefined, 'http://192.0.2.2:8787/#/servers/1')).toEqual({ url: 'http://192.0.2.2:8787', reachable: true });
  });

  it("is the agent's first network address, not yet reachable while it listens on loopback", () => {
    expect(watchTarget(loopbackAgent, 'http://127.0.0.1:8787/#/servers/1')).toEqual({ url: 'http://192.0.2.2:8787', reachable: false });
    expect(watchTarget({ ...loopbackAgent, host: '0.0.0.0', loopback_only: false }, 'http://localhost:8787/')).toEqual({
      url: 'http://192.0.2.2:8787',
      reachable: true,
    });
  });

  it('names a placeholder when the machine has no address, and waits for the agent otherwise', () => {
    expect(watchTarget({ ...loopbackAgent, remote_urls: [] }, 'http://127.0.0.1:8787/')?.url).toBe('http://THIS-MACHINE:8787');
    expect(watchTarget(undefined, 'http://127.0.0.1:8787/')).toBeNull();
  });
});
