// A job that spools pulses as fast as it can: `node --import tsx spoolWriter.ts DATA_DIR NAME COUNT GO_FILE`.
// It writes the first half, waits until GO_FILE exists (the test creates it once a replay has
// compacted the spool), then writes the second half: so replays certainly overlap the appends.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Spool } from '../../agent/client/spool/spool';

const [dataDir, name, count, goFile] = process.argv.slice(2);
const spool = new Spool(dataDir);
const total = Number(count);
const append = (i: number) =>
  spool.append('http://127.0.0.1:1', { tokenOrSlug: `${name}-${i}`, signal: 'success', body: 'x'.repeat(i * 37), key: `${name}-${i}`, at: Date.now() });

async function main() {
  for (let i = 0; i < total / 2; i++) await append(i);
  const deadline = Date.now() + 20_000;
  while (!existsSync(goFile) && Date.now() < deadline) await sleep(5);
  for (let i = Math.ceil(total / 2); i < total; i++) await append(i);
}
void main();
