import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A full disk: writes are answered 507 with a message naming the cause and change nothing,
 * reads keep working (a token's first use, which would note last_used_at, included), never a
 * 500; once space is back, writes work again. On a real 4 MB tmpfs where the machine lets us
 * mount one (root), else with SQLite's own page limit standing in for the disk.
 */

const monitor = { name: 'Nightly backup', timezone: 'UTC', schedule: '0 2 * * *', duration: 30 };
const DISK_FULL = /disk is full/i;



const disk = mountSmallDisk(4);

describe.skipIf(disk === null)('on a real full disk (tmpfs)', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ dataDir: join(disk!, 'data') });
  });
  afterAll(async () => {
    await agent.stop();
    unmountSmallDisk(disk!);
  });

  it('answers writes 507 naming the cause, keeps reads working, and writes again once space is back', async () => {
    const created = await (await agent.api('/api/monitors', { method: 'POST', json: monitor })).json();
    const freshToken = agent.tokenFor(1); // never used: its first use would write last_used_at
    agent.store.db.pragma('wal_checkpoint(TRUNCATE)'); // the next write must grow a file
    const filler = fillDisk(disk!);

    const write = await agent.api('/api/monitors', { method: 'POST', json: monitor });
    expect(write.status).toBe(507);
    expect((await write.json()).message).toMatch(DISK_FULL);
    const pulse = await fetch(`${agent.url}/api/pulse/${created.token}`);
    expect(pulse.status).toBe(507);

    const read = await agent.api('/api/monitors', { token: freshToken });
    expect(read.status).toBe(200);
    expect((await read.json()).map((m: { id: number }) => m.id)).toEqual([created.id]);
    expect((await agent.api(`/api/monitors/${created.id}/pulses`)).status).toBe(200);

    unlinkSync(filler);
    expect((await agent.api('/api/monitors', { method: 'POST', json: monitor })).status).toBe(201);
  });
});

describe('with writes refused at the storage boundary (SQLite page limit)', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
  });
  afterAll(() => agent.stop());

  it('answers 507 rather than 500 once the database cannot grow, and reads keep working', async () => {
    const pages = agent.store.db.pragma('page_count', { simple: true }) as number;
    agent.store.db.pragma(`max_page_count = ${pages}`);
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 500 && !refused; i++) {
      const response = await agent.api('/api/monitors', { method: 'POST', json: { ...monitor, name: 'x'.repeat(200) } });
      statuses.push(response.status);
      if (response.status !== 201) refused = response;
    }
    expect(refused?.status).toBe(507);
    expect((await refused!.json()).message).toMatch(DISK_FULL);
    expect((await agent.api('/api/monitors', { token: agent.tokenFor(1) })).status).toBe(200);
    agent.store.db.pragma('max_page_count = 1073741823');
    expect((await agent.api('/api/monitors', { method: 'POST', json: monitor })).status).toBe(201);
  });
});
