import { randomFillSync } from 'node:crypto';

/*
 * Time-ordered UUIDs (version 7, RFC 9562) for the keys of rows written in bursts (notifications,
 * deliveries). A random (v4) key lands on a random leaf of its index, so a burst of 10,000 failures
 * rewrote a different index page for every alert and delivery, in the write-ahead log and again at
 * each checkpoint; keys that grow with time are appended to the index's last page, which one
 * transaction writes once however many rows it adds. They are still UUIDs (the API's ids), still
 * unguessable in their 62 random bits, and sort by creation.
 */

const POOL_SIZE = 8 * 1024;
const pool = Buffer.alloc(POOL_SIZE);
let poolAt = POOL_SIZE;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

let lastMs = -1;
/** The 12 bits after the version: a counter within one millisecond, so keys made in the same one still ascend. */
let sequence = 0;

function randomBytes8(): Buffer {
  if (poolAt + 8 > POOL_SIZE) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const bytes = pool.subarray(poolAt, poolAt + 8);
  poolAt += 8;
  return bytes;
}

/** A new version-7 UUID for `nowMs` (default: the clock), greater than every one made before in this process. */
export function uuidV7(nowMs: number = Date.now()): string {
  let ms = Math.max(Math.floor(nowMs), lastMs);
  if (ms === lastMs) {
    sequence++;
    // 4,096 keys in one millisecond: borrow the next one rather than repeat or go back.
    if (sequence > 0xfff) {
      ms++;
      sequence = 0;
    }
  } else {
    sequence = 0;
  }
  lastMs = ms;
  const random = randomBytes8();
  const high = Math.floor(ms / 0x10000);
  const low = ms % 0x10000;
  const timeHex = high.toString(16).padStart(8, '0') + '-' + low.toString(16).padStart(4, '0');
  const versionAndSequence = (0x7000 | sequence).toString(16);
  const variant = HEX[0x80 | (random[0] & 0x3f)] + HEX[random[1]];
  let node = '';
  for (let i = 2; i < 8; i++) node += HEX[random[i]];
  return `${timeHex}-${versionAndSequence}-${variant}-${node}`;
}
