import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelFormErrors } from '../../renderer/src/components/ChannelForm';
import { monitorFormErrors } from '../../renderer/src/components/MonitorForm';
import { serverFormErrors } from '../../renderer/src/components/ServerForm';
import { channelBody } from '../../renderer/src/lib/channelKinds';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * The dashboard's forms check by the API's own schemas, so for the same input a form
 * and the API (a real agent over HTTP) both take it, or both refuse it with the same words.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

/** The API's 422 messages by field, or {} when it took the body. */
async function apiErrors(path: string, json: unknown): Promise<Record<string, string>> {
  const answer = await agent.api(path, { method: 'POST', json });
  if (answer.status === 201 || answer.status === 200) return {};
  expect(answer.status).toBe(422);
  const { errors } = (await answer.json()) as { errors: Record<string, string[]> };
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field, messages[0]]));
}

describe('a form and the API refuse the same inputs with the same message', () => {
  it.each(['0 2 * * *', '@daily', '0 0 2 * * *', '61 * * * *', '* * 31 2 *', 'every day', ''])('monitor schedule %j', async (schedule) => {
    const values = { name: 'Nightly backup', timezone: 'UTC', schedule, duration: '30', tags: '' };
    const form = monitorFormErrors(values);
    const api = await apiErrors('/api/monitors', { name: values.name, timezone: 'UTC', schedule, duration: 30 });
    expect(form.schedule).toBe(api.schedule);
    expect(Object.keys(form)).toEqual(Object.keys(api));
    if (['0 2 * * *', '@daily'].includes(schedule)) expect(form).toEqual({});
    else expect(form.schedule).toMatch(/^The schedule field /);
  });

  it.each(['192.0.2.10', '2001:db8::1', '::ffff:192.0.2.1', 'fe80::1%eth0', '256.1.1.1', '01.2.3.4', '1.2.3', 'host', '::g', '1::2::3'])(
    'server IP address %j',
    async (ip) => {
      const identifier = `web-${Math.random().toString(36).slice(2, 10)}`;
      const form = serverFormErrors({ name: 'Web', identifier, ip_address: ip });
      const api = await apiErrors('/api/servers', { name: 'Web', identifier, ip_address: ip });
      expect(form.ip_address).toBe(api.ip_address);
      expect(Object.keys(form)).toEqual(Object.keys(api));
      expect(form.ip_address === undefined).toBe(['192.0.2.10', '2001:db8::1', '::ffff:192.0.2.1', 'fe80::1%eth0'].includes(ip));
    },
  );

  it.each([
    ['me@localhost', []],
    ['Ops <ops@example.com>', []],
    ['me@localhost, Ops <ops@example.com>', []],
    ['not an address', ['settings.to']],
    ['', ['settings.to']],
  ] as const)('email channel address %j', async (to, refused) => {
    const values = { name: 'Mail', 'settings.host': 'smtp.example.com', 'settings.tls': 'starttls', 'settings.from': 'Cronbeat <cronbeat@example.com>', 'settings.to': to };
    const form = Object.fromEntries(Object.entries(channelFormErrors('email', values, false)).filter(([, message]) => message !== undefined));
    const api = await apiErrors('/api/channels', { ...channelBody('email', values, false), kind: 'email' });
    expect(Object.keys(form)).toEqual(refused);
    expect(form).toEqual(api);
  });
});
