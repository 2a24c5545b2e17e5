import { describe, expect, it } from 'vitest';
import { channelSecretValues, redactValues, secretsToGiveAgain } from '../../../agent/domain/channels/secrets';
import { channelKind } from '../../../agent/contract/channels';

describe('redactValues', () => {
  const slack = 'https://hooks.slack.com/services/T0ALICE01/B0ALICE02/slackTokenOfAlice123456';
  it.each([
    [`POST ${slack} failed`, 'POST [redacted] failed'],
    ['no_team hooks.slack.com/services/T0ALICE01/B0ALICE02/slackTokenOfAlice123456', 'no_team [redacted]'],
    ['no such hook: /services/T0ALICE01/B0ALICE02/slackTokenOfAlice123456', 'no such hook: [redacted]'],
    ['token slackTokenOfAlice123456 unknown', 'token [redacted] unknown'],
    [`url=${encodeURIComponent(slack)}`, 'url=[redacted]'],
  ])('%s', (text, shown) => {
    expect(redactValues(text, [slack])).toBe(shown);
  });

  it('finds a secret however an echo encoded it: lower-case hex, + for a space, JSON\'s \\/, partly encoded', () => {
    const password = 'p@ss/w rd!';
    for (const echoed of ['p%40ss%2Fw%20rd!', 'p%40ss%2fw+rd%21', 'p@ss\\/w rd!', 'p%40ss/w%20rd%21', 'p@ss%2Fw rd!']) {
      expect(redactValues(`echo: ${echoed}.`, [password])).toBe('echo: [redacted].');
    }
  });

  it('a stored secret holding a lone surrogate (no URL encoding exists for it) is redacted, never a throw', () => {
    const odd = 'signing-secret-\ud800-of-alice';
    expect(redactValues(`echo: ${odd}`, [odd])).toBe('echo: [redacted]');
  });

  it('leaves short path segments (the "services" of every Slack hook) and other text alone', () => {
    expect(redactValues('see /services/ for help', [slack])).toBe('see /services/ for help');
  });
});

describe('channelSecretValues', () => {
  it('has the secret fields and a webhook URL\'s password, decoded', () => {
    expect(channelSecretValues(channelKind('webhook'), { url: 'https://cron:p%40ss-word@h.example/in', secret: 'whsec-0123456789abcdef' })).toEqual([
      'whsec-0123456789abcdef',
      'p@ss-word',
      Buffer.from('cron:p@ss-word').toString('base64'),
    ]);
    expect(channelSecretValues(channelKind('email'), { host: 'h', password: 'smtp-pass' })).toEqual(['smtp-pass']);
  });

  it('has a webhook URL\'s credentials as its Basic header carries them (base64), which receivers echo', () => {
    const values = channelSecretValues(channelKind('webhook'), { url: 'https://cron:p%40ss-w%C3%B6rd@h.example/in' });
    expect(values).toContain(Buffer.from('cron:p@ss-wörd').toString('base64'));
    const echoed = `headers: {"authorization":"Basic ${Buffer.from('cron:p@ss-wörd').toString('base64')}"}`;
    expect(redactValues(echoed, values)).toBe('headers: {"authorization":"Basic [redacted]"}');
  });
});

describe('secretsToGiveAgain', () => {
  const kept = () => false;
  it('asks for each stored secret when the destination changes and the PATCH does not replace it', () => {
    const stored = { host: 'smtp.example.com', user: 'alice', password: 'pw' };
    expect(secretsToGiveAgain(channelKind('email'), stored, { ...stored, host: 'smtp.evil.example' }, kept)).toEqual(['password']);
    expect(secretsToGiveAgain(channelKind('email'), stored, { ...stored, host: 'smtp.evil.example' }, (f) => f === 'password')).toEqual([]);
    expect(secretsToGiveAgain(channelKind('email'), stored, { ...stored, to: 'ops@example.com' }, kept)).toEqual([]);
  });

  it('asks for nothing a channel does not have', () => {
    expect(secretsToGiveAgain(channelKind('ntfy'), { topic: 'ops' }, { topic: 'ops', server_url: 'https://ntfy.example.com' }, kept)).toEqual([]);
  });
});
