import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

// How a JSON body's bytes are read: what a client's tools may add around the JSON itself.
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const server = { name: 'backup box', ip_address: '10.0.0.7', identifier: 'backup-07' };
const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${agent.url}/api/servers`, { method: 'POST', body, headers: { Authorization: `Bearer ${agent.token}`, ...headers } });
const serverCount = () => agent.store.servers.list(1).length;

describe('a JSON body', () => {
  it('refuses a compressed body with a 415 naming its Content-Encoding, never "not valid JSON" nor a body read as if it were plain', async () => {
    for (const [encoding, body] of [
      ['gzip', gzipSync(JSON.stringify(server))],
      ['br', Buffer.from(JSON.stringify(server))],
      ['zstd, gzip', Buffer.from(JSON.stringify(server))],
    ] as const) {
      const answer = await post(body, { 'Content-Encoding': encoding, 'Content-Type': 'application/json' });
      expect(answer.status, encoding).toBe(415);
      expect(answer.headers.get('accept-encoding')).toBe('identity');
      expect((await answer.json()).message).toContain(`Content-Encoding: ${encoding}`);
    }
    expect(serverCount()).toBe(0);
    const identity = await post(JSON.stringify(server), { 'Content-Encoding': 'identity' });
    expect(identity.status).toBe(201);
  });

  it('reads a body of white space alone (`echo | curl -d @-`) as an empty one, as Laravel does: the fields it lacks are named', async () => {
    const before = serverCount();
    for (const body of ['\n', ' \r\n\t', '\uFEFF\n']) {
      const answer = await post(body, { 'Content-Type': 'application/json' });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await answer.json()).errors)).toEqual(['name', 'ip_address', 'identifier']);
      const action = await fetch(`${agent.url}/api/notifications/read`, { method: 'POST', body, headers: { Authorization: `Bearer ${agent.token}` } });
      expect(action.status, JSON.stringify(body)).toBe(200);
    }
    expect(serverCount()).toBe(before);
  });

  it('takes a UTF-8 byte order mark before the JSON (a file saved by Notepad or PowerShell, sent with curl -d @file)', async () => {
    const answer = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ ...server, identifier: 'backup-08' }))]));
    expect(answer.status).toBe(201);
    expect((await answer.json()).name).toBe('backup box');
  });

  it('refuses bytes that are not UTF-8 (a Latin-1 "é" from an old PowerShell) instead of storing a name with "�" in it', async () => {
    const latin1 = Buffer.concat([Buffer.from('{"name":"r'), Buffer.from([0xe9]), Buffer.from('seau","ip_address":"10.0.0.9","identifier":"lan-09"}')]);
    for (const contentType of ['application/json; charset=iso-8859-1', 'application/json']) {
      const answer = await post(latin1, { 'Content-Type': contentType });
      expect(answer.status, contentType).toBe(400);
      expect((await answer.json()).message).toMatch(/not valid UTF-8/);
    }
    expect(agent.store.servers.list(1).some((row) => row.identifier === 'lan-09')).toBe(false);
    // The same name in UTF-8 is taken, whatever charset the header claims (JSON has none but UTF-8).
    const utf8 = await post(JSON.stringify({ name: 'réseau', ip_address: '10.0.0.9', identifier: 'lan-09' }), { 'Content-Type': 'application/json; charset=iso-8859-1' });
    expect(utf8.status).toBe(201);
    expect((await utf8.json()).name).toBe('réseau');
  });
});
