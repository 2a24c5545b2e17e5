import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRemoteCursor, saveRemoteCursor } from '../../main/remoteCursor';

/* Which of a remote agent's notifications were shown, kept in a real data folder across restarts. */

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the remote notifications shown, across restarts', () => {
  it('reads back what was saved for the same agent only, kept private', () => {
    dir = mkdtempSync(join(tmpdir(), 'cronbeat-cursor-'));
    expect(loadRemoteCursor(dir, 'https://backup-box')).toBeUndefined();
    const cursor = { newestAt: '2026-11-25T14:02:11.123000Z', recentIds: ['a1', 'b2'] };
    saveRemoteCursor(dir, 'https://backup-box', cursor);
    expect(loadRemoteCursor(dir, 'https://backup-box')).toEqual(cursor);
    expect(loadRemoteCursor(dir, 'https://other-box')).toBeUndefined();
    expect(statSync(join(dir, 'remote-notifications.json')).mode & 0o777).toBe(0o600);
  });

  it('a damaged file counts as none', () => {
    dir = mkdtempSync(join(tmpdir(), 'cronbeat-cursor-'));
    for (const text of ['{', 'null', '{"url":"https://backup-box","newestAt":5,"recentIds":[]}', '{"url":"https://backup-box","newestAt":"","recentIds":"x"}']) {
      writeFileSync(join(dir, 'remote-notifications.json'), text);
      expect(loadRemoteCursor(dir, 'https://backup-box')).toBeUndefined();
    }
    writeFileSync(join(dir, 'remote-notifications.json'), '{"url":"https://backup-box","newestAt":"","recentIds":["a",7]}');
    expect(loadRemoteCursor(dir, 'https://backup-box')).toEqual({ newestAt: '', recentIds: ['a'] });
  });
});
