import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  user: string | null;
  secure: boolean;
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package), plain, STARTTLS or TLS from the first
 * byte; `refuseRecipients` answers every RCPT TO with that reply (550 "No such user", 451 "try later"),
 * `refuseAddresses` only those addresses' RCPT TO (a number of `times`, or always).
 */
export async function startSmtpReceiver(
  options: {
    tls?: { key: string; cert: string };
    secure?: boolean;
    login?: { user: string; pass: string };
    refuseRecipients?: { code: number; message: string };
    /** Refused `times` times (every time when absent), then taken: a server deferring an address (4xx) takes it later. */
    refuseAddresses?: Record<string, { code: number; message: string; times?: number }>;
  } = {},
) {
  const mails: ReceivedMail[] = [];
  let waiting: Array<() => void> = [];
  const server = new SMTPServer({
    secure: options.secure ?? false,
    key: options.tls?.key,
    cert: options.tls?.cert,
    disabledCommands: options.tls ? [] : ['STARTTLS'],
    authOptional: !options.login,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.login && auth.username === options.login.user && auth.password === options.login.pass) {
        return callback(null, { user: auth.username });
      }
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      const refusal: { code: number; message: string; times?: number } | undefined = options.refuseAddresses?.[address.address] ?? options.refuseRecipients;
      if (!refusal || refusal.times === 0) return callback();
      if (refusal.times !== undefined) refusal.times--;
      return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: (session.user as string | undefined) ?? null,
          secure: session.secure,
          raw,
        });
        waiting.forEach((w) => w());
        waiting = [];
        callback();
      });
    },
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}
