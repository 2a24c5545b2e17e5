import { connect } from 'node:net';

/*
 * A pulse to an http:// agent over a bare socket, read only when its answer is the plain kind an
 * agent gives (a status line, headers once each, a body of Content-Length bytes or in chunks
 * without trailers). Loading node:http and making its first request cost about 4 ms of every
 * `cronbeat run`, a sixth of its time beyond Node's own start. Anything else (a 1xx, a header
 * twice, trailers, a close before the end, a head that is no HTTP) is left to node:http, which asks
 * again: so only requests that may be sent twice come here (a pulse carries its Idempotency-Key,
 * so the agent stores it once).
 */

export interface BareAnswer {
  status: number;
  statusText: string;
  text: string;
  headers: Record<string, string>;
}

/** Node's own limit on the head of an answer (--max-http-header-size). */
const MAX_HEAD_BYTES = 16 * 1024;
/** What may stand in a request's line or header as this writes it; anything else is node:http's to refuse or encode. */
const PLAIN_TEXT = /^[\t\x20-\x7e]*$/;
/** A header's value may hold tabs, visible ASCII and obs-text bytes; node:http refuses one with another control character (HPE_INVALID_HEADER_TOKEN). */
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\t\x20-\x7e\x80-\xff]*?)[ \t]*$/;
const STATUS_LINE = /^HTTP\/1\.[01] ([2-5]\d\d)(?: (.*))?$/;
const BODILESS_STATUS = /^(?:204|304)$/;
/** A chunk's size line: its hex size, and extensions of tokens only (node:http refuses a space or control character in them, HPE_STRICT; quoted ones are left to it). */
const CHUNK_SIZE_LINE = /^([0-9a-fA-F]{1,8})(?:;[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:=[!#$%&'*+.^_`|~0-9A-Za-z-]+)?)*$/;

/** The request as node:http writes it for a URL with agent: false (credentials in the URL as Basic auth). */
export function requestText(url: URL, method: string, headers: Record<string, string>): string | null {
  const all: Record<string, string> = { ...headers };
  if ((url.username || url.password) && !Object.keys(all).some((name) => name.toLowerCase() === 'authorization')) {
    let credentials: string;
    try {
      credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    } catch {
      return null; // a stray % in them: node:http says so in its words
    }
    all.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, ...Object.entries(all).map(([name, value]) => `${name}: ${value}`), 'Connection: close'];
  return lines.every((line) => PLAIN_TEXT.test(line)) ? `${lines.join('\r\n')}\r\n\r\n` : null;
}

/** How an answer's body ends: after `length` bytes, or with its last chunk. */
type Framing = { length: number } | 'chunked';

/** The status, reason and headers of an answer's head, and how its body ends; null when it is not the plain kind. */
export function readHead(head: string): { status: number; statusText: string; headers: Record<string, string>; framing: Framing } | null {
  const [first, ...rest] = head.split('\r\n');
  const status = STATUS_LINE.exec(first);
  if (!status) return null;
  const headers: Record<string, string> = {};
  for (const line of rest) {
    const header = HEADER_LINE.exec(line);
    const name = header?.[1].toLowerCase();
    if (!header || name === undefined || Object.hasOwn(headers, name)) return null;
    headers[name] = header[2];
  }
  const framing = framingOf(status[1], headers);
  return framing === null ? null : { status: Number(status[1]), statusText: status[2] ?? '', headers, framing };
}

/** How the body of an answer with this status and these headers ends; null when it is not the plain kind. */
function framingOf(status: string, headers: Record<string, string>): Framing | null {
  // A 204 or 304 has no body whatever its headers say, as node:http reads it.
  if (BODILESS_STATUS.test(status)) return { length: 0 };
  const length = headers['content-length'];
  const coding = headers['transfer-encoding'];
  if (coding !== undefined) return coding.toLowerCase() === 'chunked' && length === undefined ? 'chunked' : null;
  return length !== undefined && /^\d{1,15}$/.test(length) ? { length: Number(length) } : null;
}

/**
 * The most chunks read here: an agent's answer comes in one or a few. Many small ones are
 * node:http's to read, as they are read again from the start at each arrival: 1.3 million
 * one-byte chunks took this over 5 s of CPU (and the request its time), node:http 1.3 s.
 */
const MAX_CHUNKS = 64;

/** A chunked body read from `data`: the body once its last chunk is in, 'more' until then, null when it is not the plain kind. */
export function readChunks(data: Buffer): Buffer | 'more' | null {
  const chunks: Buffer[] = [];
  for (let at = 0; ; ) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return data.length - at > 1024 ? null : 'more';
    const size = CHUNK_SIZE_LINE.exec(data.subarray(at, lineEnd).toString('latin1'));
    if (!size) return null;
    const length = parseInt(size[1], 16);
    const end = lineEnd + 2 + length;
    if (data.length < end + 2) return 'more';
    if (data.subarray(end, end + 2).toString('latin1') !== '\r\n') return null; // after the last chunk: trailers
    if (length === 0) return end + 2 === data.length ? Buffer.concat(chunks) : null;
    if (chunks.length === MAX_CHUNKS) return null;
    chunks.push(data.subarray(lineEnd + 2, end));
    at = end + 2;
  }
}

/** The body in `data` once it is whole, 'more' until then, null when it is not what the head said. */
function bodyOf(data: Buffer, framing: Framing): Buffer | 'more' | null {
  if (framing === 'chunked') return readChunks(data);
  return data.length < framing.length ? 'more' : data.length === framing.length ? data : null;
}

/**
 * Sends the request over a new connection and reads the answer. Resolves 'again' when node:http
 * should ask instead; rejects with the socket's error when no connection could be made (as
 * node:http does), and with `timedOut()` past `timeoutMs`.
 */
export function bareRequest(url: URL, method: string, headers: Record<string, string>, body: Buffer | undefined, limits: { maxBytes: number; timeoutMs: number; timedOut: () => Error }): Promise<BareAnswer | 'again'> {
  const text = requestText(url, method, headers);
  if (text === null) return Promise.resolve('again');
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) });
    let connected = false;
    let received = Buffer.alloc(0);
    let head: ReturnType<typeof readHead> = null;
    let settled = false;
    const settle = (outcome: BareAnswer | 'again' | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => settle(limits.timedOut()), limits.timeoutMs);
    socket.on('connect', () => (connected = true));
    socket.on('error', (error) => settle(connected ? 'again' : error));
    socket.on('close', () => settle('again')); // closed before the answer was whole
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!head) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0 && received.length <= MAX_HEAD_BYTES) return;
        // A head over node:http's limit is its to refuse (HPE_HEADER_OVERFLOW), whether or not it came in one piece.
        if (end < 0 || end + 4 > MAX_HEAD_BYTES) return settle('again');
        head = readHead(received.subarray(0, end).toString('latin1'));
        if (!head || (head.framing !== 'chunked' && head.framing.length > limits.maxBytes)) return settle('again');
        received = received.subarray(end + 4);
      }
      // Too long an answer is node:http's to refuse, in its words (http.ts, AnswerTooLargeError).
      if (received.length > limits.maxBytes + MAX_HEAD_BYTES) return settle('again');
      const body = bodyOf(received, head.framing);
      if (body === null || (body !== 'more' && body.length > limits.maxBytes)) return settle('again');
      if (body !== 'more') settle({ status: head.status, statusText: head.statusText, text: body.toString('utf8'), headers: head.headers });
    });
    // Not ended after it, as node:http does not: some servers drop a client that half-closes.
    socket.write(body ? Buffer.concat([Buffer.from(text, 'latin1'), body]) : text);
  });
}
