import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCertificate, type CheckObservation } from '../../../agent/domain/certificates/status';
import { TlsCertificateChecker } from '../../../agent/engine/certificates/checker';
import {
  closedPort,
  daysFromNow,
  makeCa,
  makeLeaf,
  startSilentServer,
  startTlsServer,
  type Leaf,
  type RunningServer,
  type TestCa,
} from './tls-fixtures';

let ca: TestCa;
let checker: TlsCertificateChecker;
const servers: RunningServer[] = [];

beforeAll(() => {
  ca = makeCa();
  // Servers that answer get all the time a busy machine needs for a handshake; the silent one its own short timeout.
  checker = new TlsCertificateChecker({ extraCa: ca.certPem, timeoutMs: 10_000 });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function serve(leaf: Leaf): Promise<number> {
  const server = await startTlsServer(leaf);
  servers.push(server);
  return server.port;
}

async function judge(hostname: string, port: number) {
  const observation = await checker.check(hostname, port);
  return { observation, ...classifyCertificate(observation, 14, Date.now()) };
}

function certificateOf(observation: CheckObservation) {
  if (!observation.reachable) throw new Error(`expected a certificate, got: ${observation.error}`);
  return observation.certificate;
}

describe('TlsCertificateChecker against real TLS servers', () => {
  it('reads a valid certificate signed by the trusted test CA', async () => {
    const leaf = makeLeaf({ ca, notAfter: daysFromNow(90) });
    const result = await judge('localhost', await serve(leaf));
    expect(result.status).toBe('valid');
    expect(result.lastError).toBeNull();
    const cert = certificateOf(result.observation);
    const expected = new X509Certificate(leaf.certPem);
    expect(cert.expiresAt).toBe(Date.parse(expected.validTo));
    expect(cert.validFrom).toBe(Date.parse(expected.validFrom));
    expect(cert.fingerprintSha256).toBe(expected.fingerprint256);
    expect(cert.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(cert.issuer).toBe('O=Cronbeat Tests, CN=Cronbeat Test Root CA');
    expect(cert.subject).toBe('CN=localhost');
  });

  it('checks an IP address against the IP altname, without SNI', async () => {
    const result = await judge('127.0.0.1', await serve(makeLeaf({ ca })));
    expect(result.status).toBe('valid');
  });

  it('calls a certificate with 3 days left expiring', async () => {
    const result = await judge('localhost', await serve(makeLeaf({ ca, notAfter: daysFromNow(3) })));
    expect(result.status).toBe('expiring');
    expect(result.lastError).toBeNull();
  });

  it('calls an expired certificate expired', async () => {
    const leaf = makeLeaf({ ca, notBefore: daysFromNow(-90), notAfter: daysFromNow(-2) });
    const result = await judge('localhost', await serve(leaf));
    expect(result.status).toBe('expired');
    expect(result.lastError).toMatch(/^Certificate expired on \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  });

  it('calls a certificate that is not valid yet invalid', async () => {
    const leaf = makeLeaf({ ca, notBefore: daysFromNow(2), notAfter: daysFromNow(90) });
    const result = await judge('localhost', await serve(leaf));
    expect(result.status).toBe('invalid');
    expect(result.lastError).toMatch(/^Certificate not valid until /);
  });

  it('calls a self-signed certificate invalid', async () => {
    const result = await judge('localhost', await serve(makeLeaf()));
    expect(result.status).toBe('invalid');
    expect(result.lastError).toBe('Self-signed certificate');
  });

  it('calls a certificate from an unknown CA invalid', async () => {
    const stranger = makeCa('Some Other CA');
    const result = await judge('localhost', await serve(makeLeaf({ ca: stranger })));
    expect(result.status).toBe('invalid');
    expect(result.lastError).toMatch(/^Untrusted certificate/);
  });

  it('does not trust the test CA unless it is handed over', async () => {
    const port = await serve(makeLeaf({ ca }));
    const observation = await new TlsCertificateChecker({ timeoutMs: 10_000 }).check('localhost', port);
    expect(classifyCertificate(observation, 14, Date.now()).status).toBe('invalid');
  });

  it('calls a certificate for another hostname invalid, naming the mismatch', async () => {
    const result = await judge('localhost', await serve(makeLeaf({ ca, names: ['other.example'] })));
    expect(result.status).toBe('invalid');
    expect(result.lastError).toBe('Hostname mismatch: the certificate is for other.example, not localhost');
  });

  it('calls a closed port unreachable: connection refused', async () => {
    const result = await judge('127.0.0.1', await closedPort());
    expect(result.status).toBe('unreachable');
    expect(result.lastError).toBe('Connection refused');
  });

  it('calls a TCP port that never answers TLS unreachable after the timeout', async () => {
    const silent = await startSilentServer();
    servers.push(silent);
    const observation = await new TlsCertificateChecker({ extraCa: ca.certPem, timeoutMs: 300 }).check('127.0.0.1', silent.port);
    const result = classifyCertificate(observation, 14, Date.now());
    expect(result.status).toBe('unreachable');
    expect(result.lastError).toBe('No TLS handshake within 0.3 s (not a TLS server?)');
  });

  it('stops at once when the check is cancelled', async () => {
    const silent = await startSilentServer();
    servers.push(silent);
    const controller = new AbortController();
    const pending = new TlsCertificateChecker({ timeoutMs: 60_000 }).check('127.0.0.1', silent.port, controller.signal);
    controller.abort();
    expect(await pending).toEqual({ reachable: false, error: 'Check cancelled' });
  });
});
