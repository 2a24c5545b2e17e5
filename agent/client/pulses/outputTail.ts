/** How much of a job's output travels with its pulse: the end, where errors usually are. */
export const OUTPUT_TAIL_BYTES = 100 * 1024;

/**
 * Keeps the last `limit` bytes of everything written to it, in the order written, so stdout
 * and stderr stay interleaved as the job produced them. Memory stays near `limit` however
 * much the job prints.
 */
export class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes dropped from the front, so the text can say it was cut. */
  private dropped = 0;

  constructor(private readonly limit = OUTPUT_TAIL_BYTES) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.chunks.length > 1 && this.size - this.chunks[0].length >= this.limit) {
      const first = this.chunks.shift()!;
      this.size -= first.length;
      this.dropped += first.length;
    }
  }

  /** The kept output as text, at most `limit` bytes of UTF-8; a character cut in half at the start is dropped. */
  text(): string {
    const all = Buffer.concat(this.chunks);
    const text = lastBytes(all, this.limit).toString('utf8');
    // Bytes that are not UTF-8 (Latin-1 text, binary) became U+FFFD, three bytes each: cut again,
    // or the agent, which keeps the first `limit` bytes of a body, would drop the end that matters.
    const encoded = Buffer.from(text);
    return encoded.length > this.limit ? lastBytes(encoded, this.limit).toString('utf8') : text;
  }

  /** True when the job printed more than the tail holds. */
  get truncated(): boolean {
    return this.dropped > 0 || this.size > this.limit;
  }
}

/** The last `limit` bytes of `bytes`, starting at a character's first byte. */
function lastBytes(bytes: Buffer, limit: number): Buffer {
  let start = Math.max(0, bytes.length - limit);
  while (start < bytes.length && start > 0 && (bytes[start] & 0xc0) === 0x80) start++;
  return bytes.subarray(start);
}
