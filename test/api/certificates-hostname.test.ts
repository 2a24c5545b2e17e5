import { describe, expect, it } from 'vitest';
import { certificateInput, normalizeHostname } from '../../agent/contract/certificates';

describe('the hostname of a certificate', () => {
  it('is stored lowercase, without a trailing dot, international names as punycode', () => {
    expect(normalizeHostname('WWW.Example.COM.')).toBe('www.example.com');
    expect(normalizeHostname('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalizeHostname('localhost')).toBe('localhost');
    expect(normalizeHostname('_acme.example.com')).toBe('_acme.example.com');
  });

  it('may be an IPv4 or IPv6 address, brackets or not', () => {
    expect(normalizeHostname('192.0.2.10')).toBe('192.0.2.10');
    expect(normalizeHostname('2001:DB8::1')).toBe('2001:db8::1');
    expect(normalizeHostname('[::1]')).toBe('::1');
  });

  it('is refused when it is a URL, carries a port or path, or is no DNS name', () => {
    for (const bad of ['https://example.com', 'example.com:443', 'example.com/x', 'user@example.com', 'a..b', '-a.example', 'a-.example', '1.2.3', '10.0.0.300', `${'a'.repeat(64)}.com`, `${'abcdefghi.'.repeat(26)}com`]) {
      expect(normalizeHostname(bad), bad).toBeNull();
    }
  });

  it('is refused with a control character in it, at its end too (where the URL parser would drop it unseen)', () => {
    for (const bad of ['example.com\u0000', 'example.com\u0001', 'example.com\u001f', 'exa\u0000mple.com', 'example.com\u007f']) {
      expect(normalizeHostname(bad), JSON.stringify(bad)).toBeNull();
      expect(certificateInput.safeParse({ hostname: bad }).error?.issues[0].path).toEqual(['hostname']);
    }
  });

  it('comes with port 443 and warn_days 14 unless given (null counts as not given)', () => {
    expect(certificateInput.parse({ hostname: 'example.com' })).toEqual({ hostname: 'example.com', port: 443, warn_days: 14 });
    expect(certificateInput.parse({ hostname: 'example.com', port: null, warn_days: null })).toEqual({
      hostname: 'example.com',
      port: 443,
      warn_days: 14,
    });
    expect(certificateInput.parse({ hostname: ' example.com ', port: 8443, warn_days: 365 })).toEqual({
      hostname: 'example.com',
      port: 8443,
      warn_days: 365,
    });
  });
});
