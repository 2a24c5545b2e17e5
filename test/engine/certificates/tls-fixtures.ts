import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as net from 'node:net';
import * as tls from 'node:tls';
import forge from 'node-forge';

const DAY = 24 * 60 * 60 * 1000;

// Keys come from Node's native RSA (fast); node-forge only builds and signs the certificates.
function newKey(): { pem: string; forgeKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey;
  return { pem, forgeKey, publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e) };
}

export interface TestCa {
  certPem: string;
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

export interface LeafOptions {
  /** DNS names and IPs the certificate is for; the first is also the CN. */
  names?: string[];
  notBefore?: Date;
  notAfter?: Date;
  /** Signed by this CA; when absent the certificate signs itself. */
  ca?: TestCa;
}

export interface Leaf {
  certPem: string;
  keyPem: string;
}

function serial(): string {
  return '01' + randomBytes(8).toString('hex');
}

/** A test root CA valid from yesterday for ten years, to hand the checker as extra trust. */
export function makeCa(commonName = 'Cronbeat Test Root CA'): TestCa {
  const key = newKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = key.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - DAY);
  cert.validity.notAfter = new Date(Date.now() + 3650 * DAY);
  const name = [{ name: 'commonName', value: commonName }, { name: 'organizationName', value: 'Cronbeat Tests' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key.forgeKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), cert, key: key.forgeKey };
}

let sharedLeafKey: ReturnType<typeof newKey> | undefined;

/** A server certificate; by default for localhost and 127.0.0.1, valid from yesterday for 90 days. */
export function makeLeaf(options: LeafOptions = {}): Leaf {
  sharedLeafKey ??= newKey();
  const names = options.names ?? ['localhost', '127.0.0.1'];
  const cert = forge.pki.createCertificate();
  cert.publicKey = sharedLeafKey.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = options.notBefore ?? new Date(Date.now() - DAY);
  cert.validity.notAfter = options.notAfter ?? new Date(Date.now() + 90 * DAY);
  cert.setSubject([{ name: 'commonName', value: names[0] }]);
  cert.setIssuer(options.ca ? options.ca.cert.subject.attributes : [{ name: 'commonName', value: names[0] }]);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: names.map((n) => (net.isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })),
    },
  ]);
  cert.sign(options.ca?.key ?? sharedLeafKey.forgeKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: sharedLeafKey.pem };
}

export function daysFromNow(days: number): Date {
  return new Date(Date.now() + days * DAY);
}

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

function listen(server: net.Server, port = 0): Promise<RunningServer> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({
        port: (server.address() as net.AddressInfo).port,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A real TLS server on 127.0.0.1 (a free port unless given) serving `leaf`; serve() swaps it, as a renewal does. */
export async function startTlsServer(leaf: Leaf, port = 0): Promise<RunningServer & { serve(next: Leaf): void }> {
  const server = tls.createServer({ key: leaf.keyPem, cert: leaf.certPem });
  server.on('tlsClientError', () => {}); // clients that reject us or hang up are expected
  server.on('secureConnection', (socket) => socket.end());
  const running = await listen(server, port);
  return { ...running, serve: (next) => server.setSecureContext({ key: next.keyPem, cert: next.certPem }) };
}

/** A plain TCP server that accepts connections, reads what it is sent, and never says a word. */
export function startSilentServer(onConnection?: (socket: net.Socket) => void): Promise<RunningServer> {
  return listen(
    net.createServer((socket) => {
      socket.resume(); // consume the ClientHello, so the client's hang-up is seen at once
      onConnection?.(socket);
    }),
  );
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const running = await listen(net.createServer());
  await running.close();
  return running.port;
}
