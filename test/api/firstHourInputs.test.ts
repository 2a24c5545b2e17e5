import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpReceiver } from '../helpers/smtpReceiver';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * What a new user types, over real HTTP: the addresses nodemailer sends, quiet hours typed as
 * 8:00, and the zone rule (old names stored as current ones, abbreviations refused naming the
 * field and the zone they may mean).
 */
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ channels: { timeoutMs: 5000 } });
});
afterAll(() => agent.stop());

const post = (path: string, json: unknown) => agent.api(path, { method: 'POST', json });
const monitor = { name: 'zone job', schedule: '0 3 * * *', duration: 30 };

async function errorsOf(response: Response): Promise<Record<string, string[]>> {
  expect(response.status).toBe(422);
  return (await response.json()).errors;
}

describe('time zones in the API', () => {
  it('stores an old name as the current one', async () => {
    for (const [given, stored] of [['Asia/Calcutta', 'Asia/Kolkata'], ['US/Eastern', 'America/New_York'], ['GMT', 'UTC']]) {
      const response = await post('/api/monitors', { ...monitor, timezone: given });
      expect(response.status, given).toBe(201);
      expect((await response.json()).timezone, given).toBe(stored);
    }
  });

  it('refuses an abbreviation or a city with 422 naming the field and the zone it may mean, and creates nothing', async () => {
    const before = (await (await agent.api('/api/monitors')).json()).length;
    const est = await errorsOf(await post('/api/monitors', { ...monitor, timezone: 'EST' }));
    expect(est.timezone![0]).toMatch(/^The timezone field must be a valid time zone: "EST" is an abbreviation, not a time zone .*America\/New_York/);
    const paris = await errorsOf(await post('/api/monitors', { ...monitor, timezone: 'Paris' }));
    expect(paris.timezone![0]).toBe('The timezone field must be a valid time zone: "Paris" is not a time zone: did you mean Europe/Paris?');
    const created = (await (await post('/api/monitors', { ...monitor, timezone: 'UTC' })).json()).id as number;
    const patched = await errorsOf(await agent.api(`/api/monitors/${created}`, { method: 'PATCH', json: { timezone: 'CET' } }));
    expect(patched.timezone![0]).toContain('Europe/Berlin');
    expect((await (await agent.api('/api/monitors')).json()).length).toBe(before + 1);
  });
});

describe('email channels and quiet hours', () => {
  const email = { host: '127.0.0.1', tls: 'none', from: 'Ops <ops@example.com>', to: 'me@localhost' };

  it('takes me@localhost and "Ops <ops@example.com>", and nodemailer sends to both', async () => {
    const smtp = await startSmtpReceiver();
    try {
      const response = await post('/api/channels', {
        name: 'local mail',
        kind: 'email',
        settings: { ...email, port: smtp.port, to: 'me@localhost, "Ops, nights" <nights@example.com>' },
      });
      expect(response.status).toBe(201);
      const channel = await response.json();
      expect(channel.settings).toMatchObject({ from: 'Ops <ops@example.com>', to: 'me@localhost, "Ops, nights" <nights@example.com>' });
      const test = await post(`/api/channels/${channel.id}/test`, {});
      expect(test.status).toBe(200);
      expect(smtp.mails).toHaveLength(1);
      expect(smtp.mails[0]).toMatchObject({ from: 'ops@example.com', to: ['me@localhost', 'nights@example.com'] });
      expect(smtp.mails[0]!.raw).toMatch(/^From: Ops <ops@example\.com>/m);
    } finally {
      await smtp.stop();
    }
  });

  it('refuses what is not an address, naming the field', async () => {
    for (const [field, settings] of [
      ['settings.from', { ...email, from: 'Ops' }],
      ['settings.from', { ...email, from: 'a@example.com, b@example.com' }],
      ['settings.to', { ...email, to: 'me@localhost, nope' }],
      ['settings.to', { ...email, to: 'Ops <>' }],
    ] as const) {
      expect(Object.keys(await errorsOf(await post('/api/channels', { name: 'x', kind: 'email', settings }))), JSON.stringify(settings)).toContain(field);
    }
  });

  it('takes quiet hours typed 8:00 and stores them as 08:00; refuses 24:00 and an abbreviated zone', async () => {
    const response = await post('/api/channels', { name: 'quiet', kind: 'email', settings: email, quiet_hours: { start: '8:00', end: '9:30', timezone: 'Asia/Calcutta' } });
    expect(response.status).toBe(201);
    expect((await response.json()).quiet_hours).toEqual({ start: '08:00', end: '09:30', timezone: 'Asia/Kolkata' });
    expect(Object.keys(await errorsOf(await post('/api/channels', { name: 'q', kind: 'email', settings: email, quiet_hours: { start: '24:00', end: '07:00', timezone: 'UTC' } })))).toEqual(['quiet_hours.start']);
    const zone = await errorsOf(await post('/api/channels', { name: 'q', kind: 'email', settings: email, quiet_hours: { start: '22:00', end: '07:00', timezone: 'CET' } }));
    expect(zone['quiet_hours.timezone']![0]).toMatch(/^The quiet hours timezone field must be a valid time zone: "CET" is an abbreviation/);
  });
});
