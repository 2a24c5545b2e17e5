import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/*
 * The dashboard's text files, compressed once each and kept: the script is about 670 kB, which
 * a phone reaching the agent over Wi-Fi or a VPN fetches in about 170 kB as Brotli. Compressed on
 * the thread pool (the event loop keeps answering pulses), the first time a file is asked for in
 * that encoding; a rebuilt file (another size or time) is compressed again.
 */

export type Encoding = 'br' | 'gzip';

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.map']);
/** Smaller files gain less than the headers cost. */
const MIN_BYTES = 1024;

const compressors: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  // Quality 9 is within a few percent of 11 at a tenth of the time.
  br: (data) => promisify(brotliCompress)(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
  gzip: (data) => promisify(gzip)(data, { level: 9 }),
};

/** Whether a file with this extension and size is worth sending compressed. */
export function compressible(extension: string, size: number): boolean {
  return COMPRESSIBLE.has(extension) && size >= MIN_BYTES;
}

/** Compressed copies by file, encoding and version ("size-mtime"); a new version replaces the old. */
export function compressedFileCache() {
  const kept = new Map<string, { version: string; body: Promise<Buffer> }>();
  return {
    /** `file` (at `version`) compressed with `encoding`; rejects when it cannot be read. */
    get(file: string, version: string, encoding: Encoding): Promise<Buffer> {
      const key = `${encoding}:${file}`;
      const known = kept.get(key);
      if (known?.version === version) return known.body;
      const body = readFile(file).then(compressors[encoding]);
      kept.set(key, { version, body });
      body.catch(() => kept.get(key)?.body === body && kept.delete(key));
      return body;
    },
  };
}
