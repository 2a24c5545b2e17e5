import { describe, expect, it } from 'vitest';
import { MAX_FAILED_IN_MENU, REDRAW_DELAY_MS, failedEntries, readTrayModel, remoteTrayModel, sameTrayModel, trayModel, trayState, trayTooltip, type MonitorSummary, type TraySnapshot } from '../../main/trayModel';

const monitor = (id: number, name: string, status: MonitorSummary['status']): MonitorSummary => ({ id, name, status });
const snapshot = (monitors: MonitorSummary[], expiring = 0, failedCerts = 0): TraySnapshot => ({
  monitors,
  expiringCertificates: expiring,
  failedCertificates: failedCerts,
});

describe('trayState', () => {
  it.each([
    ['no monitors', snapshot([]), 'ok'],
    ['all fine', snapshot([monitor(1, 'a', 'monitoring'), monitor(2, 'b', 'monitoring')]), 'ok'],
    ['a run in progress', snapshot([monitor(1, 'a', 'monitoring'), monitor(2, 'b', 'running')]), 'busy'],
    ['a certificate expiring', snapshot([monitor(1, 'a', 'monitoring')], 1), 'busy'],
    ['a monitor failed', snapshot([monitor(1, 'a', 'running'), monitor(2, 'b', 'failed')], 1), 'failed'],
    ['a certificate failed', snapshot([monitor(1, 'a', 'monitoring')], 0, 1), 'failed'],
    // Paused and new monitors are never red or green.
    ['only paused and new monitors', snapshot([monitor(1, 'a', 'paused'), monitor(2, 'b', 'new')]), 'idle'],
    ['only new monitors', snapshot([monitor(1, 'a', 'new')]), 'idle'],
    ['fine ones beside paused ones', snapshot([monitor(1, 'a', 'paused'), monitor(2, 'b', 'monitoring')]), 'ok'],
    ['paused ones beside a failed one', snapshot([monitor(1, 'a', 'paused'), monitor(2, 'b', 'failed')]), 'failed'],
    ['paused monitors, a certificate expiring', snapshot([monitor(1, 'a', 'paused')], 1), 'busy'],
  ] as const)('%s → %s', (_label, input, expected) => {
    expect(trayState(input)).toBe(expected);
  });
});

describe('trayTooltip', () => {
  it('gives the counts of each status and the certificates needing attention', () => {
    const input = snapshot(
      [monitor(1, 'a', 'failed'), monitor(2, 'b', 'failed'), monitor(3, 'c', 'running'), monitor(4, 'd', 'monitoring')],
      1,
      2,
    );
    expect(trayTooltip(input)).toBe('Cronbeat: 2 failed, 1 running, 1 fine · 2 certificates failed · 1 certificate expiring');
  });

  it('counts new and paused monitors apart, never as fine, and never lists them as failed', () => {
    const monitors = [monitor(1, 'a', 'monitoring'), monitor(2, 'b', 'new'), monitor(3, 'c', 'paused'), monitor(4, 'd', 'paused')];
    expect(trayTooltip(snapshot(monitors))).toBe('Cronbeat: 1 fine, 1 new, 2 paused');
    expect(trayTooltip(snapshot([monitor(1, 'a', 'paused')]))).toBe('Cronbeat: 1 paused');
    expect(failedEntries(monitors)).toEqual([]);
  });

  it('says when there is nothing to watch yet, and stays under Windows’ 127 characters', () => {
    expect(trayTooltip(snapshot([]))).toBe('Cronbeat: no monitors yet');
    const many = snapshot(Array.from({ length: 5000 }, (_, i) => monitor(i, `m${i}`, i % 3 === 0 ? 'failed' : 'monitoring')), 999, 999);
    expect(trayTooltip(many).length).toBeLessThan(128);
  });
});

describe('failedEntries', () => {
  it('lists failed monitors by name, each leading to its page', () => {
    const entries = failedEntries([monitor(3, 'nightly backup', 'failed'), monitor(1, 'ok job', 'monitoring'), monitor(2, 'certbot', 'failed')]);
    expect(entries).toEqual([
      { label: 'certbot', route: '/monitors/2', monitorId: 2 },
      { label: 'nightly backup', route: '/monitors/3', monitorId: 3 },
    ]);
  });

  it('folds the overflow into one entry leading to the failed filter', () => {
    const monitors = Array.from({ length: MAX_FAILED_IN_MENU + 3 }, (_, i) => monitor(i + 1, `job ${String(i).padStart(2, '0')}`, 'failed'));
    const entries = failedEntries(monitors);
    expect(entries).toHaveLength(MAX_FAILED_IN_MENU + 1);
    expect(entries.at(-1)).toEqual({ label: 'and 3 more…', route: '/monitors?status=failed' });
  });
});

describe('sameTrayModel', () => {
  it('tells when nothing the tray draws changed', () => {
    const a = trayModel(snapshot([monitor(1, 'a', 'failed')]));
    expect(sameTrayModel(null, a)).toBe(false);
    expect(sameTrayModel(a, trayModel(snapshot([monitor(1, 'a', 'failed')])))).toBe(true);
    expect(sameTrayModel(a, trayModel(snapshot([monitor(1, 'a', 'monitoring')])))).toBe(false);
  });
});

describe('how soon the tray shows a change', () => {
  it('redraws well within a second of a state change', () => {
    expect(REDRAW_DELAY_MS).toBeGreaterThan(0);
    expect(REDRAW_DELAY_MS).toBeLessThanOrEqual(500);
  });
});

describe('remoteTrayModel', () => {
  const view = { name: 'backup-box', snapshot: snapshot([monitor(1, 'backup', 'failed')]), unreachableSince: null, refused: null };
  const at = () => '14:02';

  it("names the agent and shows its monitors as the local tray would", () => {
    expect(remoteTrayModel(view, at)).toEqual({ ...trayModel(view.snapshot), tooltip: 'Cronbeat on backup-box: 1 failed' });
  });

  it("says when the agent's clock is more than a minute off this computer's: its deadlines are then not the ones the user reads", () => {
    expect(remoteTrayModel({ ...view, clockOffsetMs: 30_000 }, at).tooltip).toBe('Cronbeat on backup-box: 1 failed');
    expect(remoteTrayModel({ ...view, clockOffsetMs: 12 * 60_000 + 400 }, at).tooltip).toBe("Cronbeat on backup-box: 1 failed · its clock is 12 min ahead of this computer's");
    expect(remoteTrayModel({ ...view, clockOffsetMs: -3 * 3600_000 }, at).tooltip).toBe("Cronbeat on backup-box: 1 failed · its clock is 3 h behind this computer's");
  });

  it('turns grey and says since when the agent is unreachable, or that the key was refused', () => {
    expect(remoteTrayModel({ ...view, unreachableSince: 1 }, at)).toEqual({ state: 'idle', tooltip: 'Cronbeat on backup-box unreachable since 14:02', failed: [] });
    expect(remoteTrayModel({ ...view, refused: 'revoked' }, at).tooltip).toBe('Cronbeat on backup-box: the key was refused');
    expect(remoteTrayModel({ ...view, refused: 'revoked', refusedStatus: 401 }, at).tooltip).toBe('Cronbeat on backup-box: the key was refused');
    // Not the key's fault: the words say what was refused.
    expect(remoteTrayModel({ ...view, refused: 'ping key', refusedStatus: 403 }, at).tooltip).toBe('Cronbeat on backup-box: this key may not read it');
    expect(remoteTrayModel({ ...view, refused: 'name', refusedStatus: 421 }, at).tooltip).toBe('Cronbeat on backup-box: it does not answer to this name');
    expect(remoteTrayModel({ ...view, refused: 'gone', refusedStatus: 404 }, at).tooltip).toBe('Cronbeat on backup-box: it refused to stream its events (404)');
    expect(remoteTrayModel({ ...view, snapshot: null }, at).tooltip).toBe('Cronbeat on backup-box: connecting…');
  });
});

describe('readTrayModel', () => {
  it('turns the tray red with the reason when the monitors cannot be read, instead of throwing out of a timer', () => {
    const model = readTrayModel(() => {
      throw new Error(`database disk image is malformed${' (details)'.repeat(30)}`);
    });
    expect(model.state).toBe('failed');
    expect(model.failed).toEqual([]);
    expect(model.tooltip).toMatch(/^Cronbeat cannot read its monitors: database disk image is malformed/);
    expect(model.tooltip.length).toBeLessThanOrEqual(127); // Windows cuts a tray tooltip there
    const fine = trayModel(snapshot([monitor(1, 'a', 'monitoring')]));
    expect(readTrayModel(() => fine)).toBe(fine);
  });
});
