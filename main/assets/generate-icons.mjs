// Draws Cronbeat's app and tray icons as PNG files (run: node main/assets/generate-icons.mjs).
// Shapes are described as point-inside tests and rendered with 4x4 supersampling; the PNG
// encoder is node's zlib plus a CRC table, so no image tool is needed.
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Shapes in a unit square (0..1), y down.
const circle = (cx, cy, r) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const ring = (cx, cy, r, w) => (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) <= w / 2;
function segment(ax, ay, bx, by, w) {
  return (x, y) => {
    const dx = bx - ax, dy = by - ay;
    const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(x - (ax + t * dx), y - (ay + t * dy)) <= w / 2;
  };
}
const polyline = (points, w) => {
  const parts = points.slice(1).map((p, i) => segment(points[i][0], points[i][1], p[0], p[1], w));
  return (x, y) => parts.some((inside) => inside(x, y));
};
const roundedSquare = (inset, radius) => (x, y) => {
  const qx = Math.max(Math.abs(x - 0.5) - (0.5 - inset - radius), 0);
  const qy = Math.max(Math.abs(y - 0.5) - (0.5 - inset - radius), 0);
  return Math.hypot(qx, qy) <= radius;
};
const union = (...shapes) => (x, y) => shapes.some((inside) => inside(x, y));

// The heartbeat that is Cronbeat's mark, scaled into a box.
const pulse = (x0, x1, yMid, amp, w) =>
  polyline(
    [[x0, yMid], [x0 + (x1 - x0) * 0.3, yMid], [x0 + (x1 - x0) * 0.42, yMid - amp], [x0 + (x1 - x0) * 0.58, yMid + amp], [x0 + (x1 - x0) * 0.7, yMid], [x1, yMid]],
    w,
  );
const clockHands = (w) => union(segment(0.5, 0.5, 0.5, 0.28, w), segment(0.5, 0.5, 0.66, 0.6, w));
const exclamation = (w) => union(segment(0.5, 0.27, 0.5, 0.55, w), circle(0.5, 0.72, w * 0.6));
const pauseBars = (w) => union(segment(0.4, 0.32, 0.4, 0.68, w), segment(0.6, 0.32, 0.6, 0.68, w));

/** Paints layers of [inside, [r, g, b, a]] over transparency; colours may depend on y. */
function render(size, layers) {
  const rgba = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          let colour = [0, 0, 0, 0];
          for (const [inside, paint] of layers) {
            if (!inside(x, y)) continue;
            const c = typeof paint === 'function' ? paint(x, y) : paint;
            if (c[3] === 0) colour = [0, 0, 0, 0]; // a transparent layer cuts out
            else colour = c;
          }
          r += colour[0] * colour[3]; g += colour[1] * colour[3]; b += colour[2] * colour[3]; a += colour[3];
        }
      }
      const i = (py * size + px) * 4;
      rgba[i] = a ? Math.round(r / a) : 0;
      rgba[i + 1] = a ? Math.round(g / a) : 0;
      rgba[i + 2] = a ? Math.round(b / a) : 0;
      rgba[i + 3] = Math.round((a / (n * n)) * 255) / 1;
    }
  }
  for (let i = 3; i < rgba.length; i += 4) rgba[i] = Math.min(255, rgba[i]);
  return encodePng(size, rgba);
}

function write(path, png) {
  mkdirSync(dirname(join(here, path)), { recursive: true });
  writeFileSync(join(here, path), png);
}

const WHITE = [255, 255, 255, 1];
const BLACK = [0, 0, 0, 1];
const CLEAR = [0, 0, 0, 0];
// idle: every monitor is paused or waits for its first run, so neither green nor red.
const STATE_COLOURS = { ok: [34, 160, 107, 1], busy: [224, 161, 0, 1], failed: [217, 63, 63, 1], idle: [128, 134, 140, 1] };

// App icon: a deep teal rounded square with the white heartbeat.
const appLayers = [
  [roundedSquare(0.06, 0.2), (_x, y) => [Math.round(16 + 20 * y), Math.round(110 - 40 * y), Math.round(120 - 30 * y), 1]],
  [pulse(0.2, 0.8, 0.52, 0.2, 0.075), WHITE],
];
for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) write(`icons/${size}x${size}.png`, render(size, appLayers));

// Tray, in colour (Windows, Linux): the state in colour and in shape (pulse, clock, exclamation).
const glyphs = {
  ok: (w) => pulse(0.2, 0.8, 0.52, 0.2, w),
  busy: (w) => clockHands(w),
  failed: (w) => exclamation(w),
  idle: (w) => pauseBars(w),
};
for (const [state, colour] of Object.entries(STATE_COLOURS)) {
  const layers = [[circle(0.5, 0.5, 0.48), colour], [glyphs[state](0.12), WHITE]];
  write(`tray/tray-${state}.png`, render(16, layers));
  write(`tray/tray-${state}@2x.png`, render(32, layers));
  write(`tray/tray-${state}-linux.png`, render(32, layers));
  // macOS template: black and clear only; the menu bar tints it. Shape carries the state.
  const template =
    state === 'failed'
      ? [[circle(0.5, 0.5, 0.46), BLACK], [glyphs.failed(0.13), CLEAR]]
      : [[ring(0.5, 0.5, 0.4, 0.11), BLACK], [glyphs[state](0.11), BLACK]];
  write(`tray/tray-${state}Template.png`, render(16, template));
  write(`tray/tray-${state}Template@2x.png`, render(32, template));
}
console.log(`Icons written under ${here}`);
