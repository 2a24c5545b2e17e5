import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { parseEmailAddress, parseEmailAddresses } from '../../../agent/domain/channels/emailAddresses';

describe('email addresses', () => {
  it.each([
    ['me@localhost', { name: '', address: 'me@localhost' }],
    ['ops@example.com', { name: '', address: 'ops@example.com' }],
    ['Ops <ops@example.com>', { name: 'Ops', address: 'ops@example.com' }],
    ['"Ops, night shift" <ops@example.com>', { name: 'Ops, night shift', address: 'ops@example.com' }],
    ['<root@localhost>', { name: '', address: 'root@localhost' }],
    ['chef@café.fr', { name: '', address: 'chef@café.fr' }],
  ])('takes %j', (written, parsed) => {
    expect(parseEmailAddress(written)).toEqual(parsed);
  });

  it.each(['nope', 'a@', '@b', 'a b@c', 'Ops <>', 'Ops <nope>', 'a@b..c', 'a@-b', 'x@y z@w', '"unclosed <a@b>'])('refuses %j', (written) => {
    expect(parseEmailAddress(written)).toBeNull();
  });

  it('reads a list, commas inside quotes included, and refuses a list with one bad piece', () => {
    expect(parseEmailAddresses('"Ops, team" <ops@example.com>, me@localhost')).toEqual([
      { name: 'Ops, team', address: 'ops@example.com' },
      { name: '', address: 'me@localhost' },
    ]);
    expect(parseEmailAddresses('a@b, c')).toBeNull();
    expect(parseEmailAddresses(' ')).toBeNull();
  });

  it('takes only what nodemailer sends: both of the issue\'s addresses reach the envelope', async () => {
    const transport = createTransport({ jsonTransport: true });
    const sent = await transport.sendMail({ from: 'Ops <ops@example.com>', to: 'me@localhost, "Ops, team" <team@example.com>', text: 'x' });
    expect(sent.envelope).toEqual({ from: 'ops@example.com', to: ['me@localhost', 'team@example.com'] });
  });
});
