import { describe, expect, it } from 'vitest';
import { checkWatchdogUrl, LOOP_STALL_MS, loopVerdict } from '../../../agent/domain/agentHealth/watchdog';

const now = Date.parse('2026-11-21T10:00:00Z');

describe('loopVerdict', () => {
  it('is healthy while the loop ran within the bound and its writes work', () => {
    expect(loopVerdict({ lastRanAt: now - LOOP_STALL_MS, failingSince: null }, now)).toEqual({ healthy: true });
    expect(loopVerdict({ lastRanAt: now, failingSince: null }, now)).toEqual({ healthy: true });
  });

  it('is unhealthy once the loop has not run for longer than the bound, or not yet', () => {
    expect(loopVerdict({ lastRanAt: now - LOOP_STALL_MS - 1, failingSince: null }, now)).toEqual({ healthy: false, reason: 'the monitor loop has not run for 90 s' });
    expect(loopVerdict({ lastRanAt: null, failingSince: null }, now)).toEqual({ healthy: false, reason: 'the monitor loop has not run yet' });
  });

  it('is unhealthy while its writes fail, however recently it ran', () => {
    expect(loopVerdict({ lastRanAt: now, failingSince: now - 12_400 }, now)).toEqual({ healthy: false, reason: 'the monitor loop cannot write (for 12 s)' });
  });
});

describe('checkWatchdogUrl', () => {
  it('takes http(s) URLs with a path and a query, as check services hand them out', () => {
    expect(checkWatchdogUrl(' https://hc-ping.com/5f1c2b8e-0d4a-4e7f-9a3b-1c2d3e4f5a6b ')).toEqual({ url: 'https://hc-ping.com/5f1c2b8e-0d4a-4e7f-9a3b-1c2d3e4f5a6b' });
    expect(checkWatchdogUrl('http://kuma.lan:3001/api/push/AbC123?status=up&msg=OK')).toEqual({ url: 'http://kuma.lan:3001/api/push/AbC123?status=up&msg=OK' });
  });

  it('refuses anything else, without repeating the URL (a secret)', () => {
    for (const input of ['watch.example.org/5f1c', 'ftp://example.com/x', 'file:///etc/passwd', `https://example.com/${'a'.repeat(2000)}`]) {
      const checked = checkWatchdogUrl(input);
      expect('error' in checked, input).toBe(true);
      if ('error' in checked) expect(checked.error).not.toContain(input.slice(0, 10));
    }
  });
});
