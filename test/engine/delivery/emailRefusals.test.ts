import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpReceiver } from '../../helpers/smtpReceiver';
import { deliveryFixture } from './deliveryFixture';

/*
 * Mail servers that refuse part of what they are sent, or stop half way: the admin sees who did
 * not get the alert and why, and nothing is left stuck.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((stop) => stop()));
  await fixture?.close();
});

/**
 * A plain SMTP server whose every reply comes `delayMs` late (each step well within a timeout, the
 * whole conversation not); `taken` tells whether a message was handed over (its final dot received),
 * `closed` when the client ended the connection.
 */
async function slowServer(delayMs: number): Promise<{ port: number; taken: () => boolean; closed: Promise<void>; stop: () => Promise<void> }> {
  let taken = false;
  let onClose: () => void = () => {};
  const closed = new Promise<void>((resolve) => (onClose = resolve));
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => onClose());
    const say = (line: string) => setTimeout(() => !socket.destroyed && socket.write(line), delayMs);
    say('220 mail.test ESMTP\r\n');
    let inData = false;
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      if (inData) {
        if (!buffer.includes('\r\n.\r\n')) return;
        inData = false;
        taken = true;
        buffer = '';
        return say('250 queued\r\n');
      }
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end).toUpperCase();
        buffer = buffer.slice(end + 2);
        if (line.startsWith('EHLO')) say('250-mail.test\r\n250 8BITMIME\r\n');
        else if (line.startsWith('DATA')) {
          inData = true;
          say('354 go ahead\r\n');
        } else say('250 OK\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    taken: () => taken,
    closed,
    stop: () => new Promise<void>((done) => {
      sockets.forEach((s) => s.destroy());
      server.close(() => done());
    }),
  };
}

/** A plain SMTP server speaking just enough to take the envelope, then closing the connection in the middle of DATA. */
async function closesMidData(): Promise<{ port: number; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.write('220 mail.test ESMTP\r\n');
    let inData = false;
    let buffer = '';
    socket.on('data', (chunk) => {
      if (inData) return socket.destroy();
      buffer += chunk.toString('latin1');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end).toUpperCase();
        buffer = buffer.slice(end + 2);
        if (line.startsWith('EHLO')) socket.write('250-mail.test\r\n250 8BITMIME\r\n');
        else if (line.startsWith('DATA')) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((done) => {
      sockets.forEach((s) => s.destroy());
      server.close(() => done());
    }),
  };
}

describe('email refusals', () => {
  it('a recipient the server refuses while it takes the others is named on the delivery, not hidden behind "sent"', async () => {
    const smtp = await startSmtpReceiver({ refuseAddresses: { 'gone@example.com': { code: 550, message: '5.1.1 No such user' } } });
    cleanups.push(smtp.stop);
    fixture = deliveryFixture();
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cb@example.com', to: 'ops@example.com, gone@example.com' });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].to).toEqual(['ops@example.com']);
    const [delivery] = fixture.deliveries();
    expect(delivery.status).toBe('sent');
    const row = fixture.store.db.prepare('SELECT response_body FROM deliveries WHERE id = ?').get(delivery.id) as { response_body: string };
    expect(row.response_body).toMatch(/^The mail server refused a recipient, who did not get this: gone@example\.com \(550 5\.1\.1 No such user\)\. 250 /);
  });

  it('a recipient the server defers (4xx: try again later) while it takes the others gets the alert on a retry, sent to it alone', async () => {
    const smtp = await startSmtpReceiver({ refuseAddresses: { 'late@example.com': { code: 451, message: '4.7.1 Greylisted, try again later', times: 1 } } });
    cleanups.push(smtp.stop);
    fixture = deliveryFixture();
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'Cronbeat <cb@example.com>', to: 'ops@example.com, Late <late@example.com>' });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(smtp.mails.map((m) => m.to)).toEqual([['ops@example.com']]);
    const [first] = fixture.deliveries();
    expect(first).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: fixture.clock.now + 30_000 });
    expect(first.last_error).toMatch(/^The mail server deferred a recipient \(4xx: try again later\): late@example\.com \(451 4\.7\.1 Greylisted, try again later\)\. It took the others\. This is sent again to it alone\.$/);

    fixture.clock.now += 30_000;
    await fixture.worker.runDue();
    expect(smtp.mails.map((m) => [m.from, m.to])).toEqual([['cb@example.com', ['ops@example.com']], ['cb@example.com', ['late@example.com']]]);
    // The same mail as the others got: its To names them all.
    expect(smtp.mails[1].raw).toMatch(/^To: ops@example\.com, Late <late@example\.com>$/m);
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('an address deferred, then taken out of the channel, is not written to again: nothing is owed any more', async () => {
    const smtp = await startSmtpReceiver({ refuseAddresses: { 'late@example.com': { code: 451, message: '4.7.1 Try again later' } } });
    cleanups.push(smtp.stop);
    fixture = deliveryFixture();
    const settings = { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cb@example.com', to: 'ops@example.com, late@example.com' };
    const channel = fixture.channel('email', settings);
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 1 });
    fixture.store.channels.update(1, channel.id, { name: channel.name, settings: { ...settings, to: 'ops@example.com' }, quietHours: null, remindEveryHours: null }, fixture.clock.now);

    fixture.clock.now += 30_000;
    await fixture.worker.runDue();
    expect(smtp.mails).toHaveLength(1);
    const [delivery] = fixture.deliveries();
    expect(delivery).toMatchObject({ status: 'sent', attempts: 2 });
    const row = fixture.store.db.prepare('SELECT response_body FROM deliveries WHERE id = ?').get(delivery.id) as { response_body: string };
    expect(row.response_body).toBe("Nothing left to send: the addresses the mail server deferred are no longer among the channel's recipients.");
  });

  it('a test send to a server that defers a recipient says so, and nothing is sent again', async () => {
    const smtp = await startSmtpReceiver({ refuseAddresses: { 'late@example.com': { code: 451, message: '4.7.1 Try again later' } } });
    cleanups.push(smtp.stop);
    fixture = deliveryFixture();
    const channel = fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cb@example.com', to: 'ops@example.com, late@example.com' });
    const result = await fixture.worker.sendTest(channel);
    expect(result).toMatchObject({ ok: false, error: 'The mail server deferred a recipient (4xx: try again later): late@example.com (451 4.7.1 Try again later). It took the others.' });
    expect(smtp.mails.map((m) => m.to)).toEqual([['ops@example.com']]);
  });

  it('a server that closes the connection in the middle of DATA is a failed attempt, retried', async () => {
    const server = await closesMidData();
    cleanups.push(server.stop);
    fixture = deliveryFixture();
    fixture.channel('email', { host: '127.0.0.1', port: server.port, tls: 'none', from: 'cb@example.com', to: 'ops@example.com' });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    const [delivery] = fixture.deliveries();
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: fixture.clock.now + 30_000 });
  });

  it('a conversation given up on (no answer in time) is ended, so the mail cannot go after the attempt was recorded failed', async () => {
    // Each reply 100 ms late: the whole conversation takes about 600 ms, the send may take 350.
    const server = await slowServer(100);
    cleanups.push(server.stop);
    fixture = deliveryFixture(undefined, { timeoutMs: 350 });
    fixture.channel('email', { host: '127.0.0.1', port: server.port, tls: 'none', from: 'cb@example.com', to: 'ops@example.com' });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'No answer in time (timed out).' });
    // Left to go on, the conversation would end only after handing the mail over.
    await server.closed;
    expect(server.taken()).toBe(false);
  });

  it('starttls required by a server that offers none fails in words naming the setting', async () => {
    const smtp = await startSmtpReceiver();
    cleanups.push(smtp.stop);
    fixture = deliveryFixture();
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'starttls', user: 'bot', password: 'pw-secret-1234', from: 'cb@example.com', to: 'ops@example.com' });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    const [delivery] = fixture.deliveries();
    expect(smtp.mails).toHaveLength(0);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery.last_error).toMatch(/refused STARTTLS .*set the channel's tls to "tls"/);
    expect(delivery.last_error).not.toContain('pw-secret-1234');
  });
});
