import { describe, expect, it } from 'vitest';
import { mayCarryCredentials, redirectRule } from '../../../agent/domain/net/redirects';

const rule = (status: number, location: string | null, from = 'https://hooks.example.com/in', hop = 0) =>
  redirectRule({ status, location, from: new URL(from), configured: new URL(from), hop, maxHops: 5 });

describe('which redirects a send follows', () => {
  it.each([301, 302, 303, 300, 304])('%i is a failed attempt', (status) => {
    const answer = rule(status, '/elsewhere');
    expect(answer.kind).toBe('refuse');
  });

  it('names the new location of a 301/302/303, resolved against the URL that answered', () => {
    expect(rule(302, '/new-home')).toEqual({
      kind: 'refuse',
      error: "The receiver redirected (HTTP 302) to https://hooks.example.com/new-home. Cronbeat follows only 307 and 308, which keep the POST and its body: change the channel's URL to the new location.",
    });
  });

  it.each(['', '  '])('a 307 whose Location is empty (%j) has none: a failed attempt, not a redirect to itself until the hops run out', (location) => {
    expect(rule(307, location)).toEqual({ kind: 'refuse', error: 'The receiver answered HTTP 307 without a usable Location.' });
  });

  it('follows a 307 or 308 on the same origin with credentials, to another origin without', () => {
    expect(rule(307, '/v2')).toMatchObject({ kind: 'follow', keepCredentials: true });
    expect(rule(308, 'https://other.example.com/in')).toMatchObject({ kind: 'follow', keepCredentials: false });
    expect(rule(308, 'https://hooks.example.com:8443/in')).toMatchObject({ kind: 'follow', keepCredentials: false });
  });

  it('keeps credentials on the https upgrade of the same host, never on a downgrade (refused)', () => {
    expect(rule(308, 'https://hooks.example.com/in', 'http://hooks.example.com/in')).toMatchObject({ kind: 'follow', keepCredentials: true });
    expect(rule(307, 'http://hooks.example.com/in')).toMatchObject({ kind: 'refuse', error: expect.stringMatching(/from https to plain http/) });
  });

  it('drops a user:pass@ the Location names, refuses other schemes, no Location, and more than the hop limit', () => {
    const followed = rule(307, 'https://mallory:pw@hooks.example.com/in');
    expect(followed.kind === 'follow' && followed.to.href).toBe('https://hooks.example.com/in');
    expect(rule(307, 'ftp://hooks.example.com/in').kind).toBe('refuse');
    expect(rule(307, null)).toMatchObject({ kind: 'refuse', error: 'The receiver answered HTTP 307 without a usable Location.' });
    expect(rule(307, '/again', 'https://hooks.example.com/in', 5)).toMatchObject({ kind: 'refuse', error: expect.stringMatching(/^Too many redirects/) });
  });

  it('mayCarryCredentials: the same origin, or http → https on the same host and default port', () => {
    const u = (s: string) => new URL(s);
    expect(mayCarryCredentials(u('http://a.example/x'), u('http://a.example/y'))).toBe(true);
    expect(mayCarryCredentials(u('http://a.example/x'), u('https://a.example/y'))).toBe(true);
    expect(mayCarryCredentials(u('http://a.example/x'), u('https://b.example/y'))).toBe(false);
    expect(mayCarryCredentials(u('https://a.example/x'), u('http://a.example/y'))).toBe(false);
    // Another port is another service, which may belong to someone else on a shared host: 8080 → 443 is no upgrade.
    expect(mayCarryCredentials(u('http://a.example:8080/x'), u('https://a.example/y'))).toBe(false);
    expect(mayCarryCredentials(u('http://a.example:8080/x'), u('https://a.example:8443/y'))).toBe(false);
  });
});
