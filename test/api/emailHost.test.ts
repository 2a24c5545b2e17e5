import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * An email channel's SMTP host is a host name or an IP address, as its 422 has always said. Found
 * by an outside fuzzing pass: only white space, "/", ":" and "@" were refused, so a mistyped
 * address (`192.168.1`, a byte short) or a name no DNS can hold (`-smtp.example.com`) was taken
 * with a 201, and the mistake showed only when alerts failed to go out. The rule is now the one a
 * certificate's hostname follows (agent/contract/certificates.ts).
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const emailWith = (host: string) => ({ name: 'mail', kind: 'email', settings: { host, from: 'cron@example.com', to: 'ops@example.com' } });

describe('an email channel\'s host', () => {
  it('is refused, naming it, when it is no host name nor IP address, and nothing is stored', async () => {
    for (const host of ['192.168.1', '10.0.0.1.5', '-smtp.example.com', 'smtp-.example.com', 'smtp..example.com', 'smtp.example.com:587', '::1']) {
      const response = await agent.api('/api/channels', { method: 'POST', json: emailWith(host) });
      expect(response.status, host).toBe(422);
      expect((await response.json()).errors, host).toEqual({ 'settings.host': ['The host field must be a host name or an IP address.'] });
    }
    expect(await (await agent.api('/api/channels')).json()).toEqual([]);
  });

  it('takes a host name or an IPv4 address, stored as written, and refuses a mistyped one on an edit', async () => {
    for (const host of ['smtp.example.com', 'localhost', 'mail_relay.lan', '192.168.1.20', 'SMTP.Example.com.']) {
      const response = await agent.api('/api/channels', { method: 'POST', json: emailWith(host) });
      expect(response.status, host).toBe(201);
      expect((await response.json()).settings.host, host).toBe(host);
    }
    const channel = await (await agent.api('/api/channels', { method: 'POST', json: emailWith('smtp.example.com') })).json();
    const edit = await agent.api(`/api/channels/${channel.id}`, { method: 'PATCH', json: { settings: { host: '192.168.1' } } });
    expect(edit.status).toBe(422);
    expect((await (await agent.api(`/api/channels/${channel.id}`)).json()).settings.host).toBe('smtp.example.com');
  });
});
