import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { startSmtpReceiver } from '../../helpers/smtpReceiver';
import { deliveryFixture } from './deliveryFixture';

/*
 * A channel set up with the wrong kind of TLS fails with a sentence naming the fix, not with
 * OpenSSL's "wrong version number" or nodemailer's "Error upgrading connection": tried against
 * a real plain-HTTP receiver and a real SMTP server that offers no STARTTLS.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((stop) => stop()));
  await fixture?.close();
});

describe('TLS mistakes in words', () => {
  it('an https:// webhook whose server speaks plain http says so, with the http:// URL to use', async () => {
    const plain = await new Receiver().start();
    cleanups.push(() => plain.stop());
    fixture = deliveryFixture();
    const https = plain.url.replace(/^http:/, 'https:');
    fixture.channel('webhook', { url: `${https}/in` });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    const [delivery] = fixture.deliveries();
    expect(delivery.status).not.toBe('sent');
    expect(delivery.last_error).toMatch(new RegExp(`^the server at ${https.replace(/[.]/g, '\\.')} speaks plain http, not https: use ${plain.url.replace(/[.]/g, '\\.')}/in \\((EPROTO|ERR_SSL_WRONG_VERSION_NUMBER)\\)$`));
    expect(plain.requests).toEqual([]);
  });

  it('email with tls "starttls" to a server that refuses STARTTLS names the tls settings to pick', async () => {
    const smtp = await startSmtpReceiver();
    cleanups.push(smtp.stop);
    fixture = deliveryFixture();
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'starttls', from: 'cronbeat@example.com', to: 'ops@example.com' });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    const [delivery] = fixture.deliveries();
    expect(delivery.last_error).toMatch(
      new RegExp(`^The mail server at 127\\.0\\.0\\.1:${smtp.port} refused STARTTLS \\(it answered ".*"\\): set the channel's tls to "tls" if it takes TLS from the first byte \\(usually port 465\\), or to "none"`),
    );
    expect(smtp.mails).toEqual([]);
  });

  it('email with tls "tls" to a plain SMTP server says to pick "starttls" or "none"', async () => {
    const smtp = await startSmtpReceiver();
    cleanups.push(smtp.stop);
    fixture = deliveryFixture();
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'tls', from: 'cronbeat@example.com', to: 'ops@example.com' });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    const [delivery] = fixture.deliveries();
    expect(delivery.last_error).toMatch(/^The mail server at 127\.0\.0\.1:\d+ does not speak TLS from the first byte \(.*\): set the channel's tls to "starttls"/);
  });
});
