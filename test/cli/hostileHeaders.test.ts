import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';

/*
 * What hostileAgent.test.ts does for an agent's JSON, for the parts of an answer Node's own HTTP
 * parser hands over: a status line and headers may carry raw bytes 0x80–0xFF, which Node reads as
 * Latin-1, so byte 0x9B arrives as U+009B (a one-byte CSI on some terminals) and a redirect's
 * Location or a Content-Type quoted in an error could carry it. And for the one place a stranger's
 * text comes from a file's name rather than its contents: a systemd timer unit named with ESC.
 */

// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

function expectSafe(text: string, what: string): void {
  const found = CONTROL.exec(text);
  expect(found, `${what}: U+${found?.[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${JSON.stringify(text)}`).toBeNull();
}

/** C1 CSI, NEL, then U+202E (turns text around) and U+2066 as UTF-8 bytes, which Node reads one character a byte. */
const RAW = Buffer.from([0x9b, 0x33, 0x31, 0x6d, 0x85, 0xe2, 0x80, 0xae, 0xe2, 0x81, 0xa6, 0xc2, 0x9b]);

/** A server that answers every request with `status` and hostile bytes in its reason phrase, Location and Content-Type. */
function rawServer(status: number): Promise<{ url: string; server: Server }> {
  const server = createServer((socket) => {
    socket.once('data', () => {
      const body = JSON.stringify({ message: 'm\u001b]0;title\u0007\u009b2J' });
      const head = (text: string) => Buffer.from(text, 'latin1');
      socket.end(
        Buffer.concat([
          head(`HTTP/1.1 ${status} Odd`), RAW,
          head('\r\nLocation: http://127.0.0.1:1/%1b]0;x%07/'), RAW,
          head('\r\nContent-Type: application/json'), RAW,
          head(`\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`),
          Buffer.from(body),
        ]),
      );
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe('raw bytes in an answer’s status line and headers never reach the terminal', () => {
  const servers: Server[] = [];
  const urls: Record<number, string> = {};
  beforeAll(async () => {
    for (const status of [302, 500]) {
      const { url, server } = await rawServer(status);
      urls[status] = url;
      servers.push(server);
    }
  });
  afterAll(() => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))));

  for (const status of [302, 500]) {
    it(`answered ${status}: monitor list, ping and maintenance list say so in clean words`, async () => {
      const env = { CRONBEAT_URL: urls[status], CRONBEAT_API_TOKEN: 'cb_test', CRONBEAT_DATA_DIR: tempFolder() };
      // notifications --follow retries a 500 for ever; a redirect of its stream ends it, quoting the Location.
      const follow = status === 302 ? [['notifications', '--follow']] : [];
      for (const args of [['monitor', 'list'], ['ping', '0b3c7a2e-8f7d-4a55-9b8e-3d2f1c0a9e11'], ['maintenance', 'list'], ...follow]) {
        const result = await runCli(args, { env });
        expect(result.stderr, args.join(' ')).toMatch(/^cronbeat: /);
        expectSafe(result.stdout, `${args.join(' ')} stdout`);
        expectSafe(result.stderr, `${args.join(' ')} stderr`);
      }
    }, 30_000); // a 500 is tried again with backoff: about 1.5 s a command
  }
});

describe('a timer unit named with control characters', () => {
  it('timers list shows its name with them written out', async () => {
    const root = tempFolder();
    const units = join(root, 'etc/systemd/system');
    mkdirSync(join(units, 'timers.target.wants'), { recursive: true });
    const name = 'evil\u001b]0;title\u0007\u001b[2J\u009b31m\u202e.timer';
    writeFileSync(join(units, name), '[Unit]\nDescription=\u001b]52;c;aGk=\u0007\n[Timer]\nOnCalendar=daily\nUnit=x\u001b[8m.service\n');
    symlinkSync(join('..', name), join(units, 'timers.target.wants', name));
    const result = await runCli(['timers', 'list', '--root', root]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('evil\\u001b]0;title\\u0007\\u001b[2J\\u009b31m\\u202e.timer');
    expectSafe(result.stdout, 'stdout');
    expectSafe(result.stderr, 'stderr');
  });
});
