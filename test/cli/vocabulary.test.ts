import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { presentNotification } from '../../agent/contract/notifications';
import type { MonitorReason } from '../../agent/domain/alerts/alert';
import { PROBLEM_WORDS, problemOf, reasonPieces, type Problem } from '../../agent/domain/alerts/vocabulary';
import { detailPiecesOf } from '../../agent/domain/alerts/reasonPieces';
import { CHANNEL_KINDS } from '../../agent/contract/channels';
import { buildRequest, type OutgoingRequest } from '../../agent/engine/delivery/messages';
import { alertPopup } from '../../agent/domain/alerts/monitorPopups';
import { badgeLabel } from '../../renderer/src/components/StatusBadge';
import { at, engineFixture } from '../engine/engineFixture';
import { startAgent, type RunningAgent } from '../../agent/agent';
import { runCli, tempFolder } from '../helpers/cli';

/*
 * One vocabulary for what went wrong, everywhere: a job that said it failed is "failed", a run
 * that did not come "missed", a run taking too long "stuck". Each case is made by the engine from
 * a timeline (pulses and the monitor loop's step at moved times), then read where a person
 * reads it: the dashboard's badge and sentence, `cronbeat monitor list` and `show` against a
 * real agent on that database, and the message every channel kind builds. Each says the word
 * and the same sentence (its moments in its own format).
 */
vi.setConfig({ testTimeout: 60_000 });

const CHANNEL_SETTINGS: Record<(typeof CHANNEL_KINDS)[number], Record<string, unknown>> = {
  webhook: { url: 'http://127.0.0.1:9/hook' },
  ntfy: { server_url: 'http://127.0.0.1:9', topic: 'ops' },
  slack: { webhook_url: 'http://127.0.0.1:9/services/T/B/X' },
  discord: { webhook_url: 'http://127.0.0.1:9/api/webhooks/1/abc' },
  email: { host: '127.0.0.1', port: 25, tls: 'none', from: 'cronbeat@example.com', to: 'ops@example.com' },
  telegram: { bot_token: '1:A', chat_id: '42', api_url: 'http://127.0.0.1:9' },
};

/** What a request says to a person: an HTTP body's strings (JSON decoded), or an email's subject and text. */
function saidBy(request: OutgoingRequest): string {
  if (request.transport === 'email') return `${request.mail.subject}\n${request.mail.text}`;
  try {
    const strings: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string') strings.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(JSON.parse(request.body));
    // As the chat shows it: a markdown escape ("\\(") is not a word.
    return strings.join('\n').replace(/\\(.)/g, '$1');
  } catch {
    return request.body;
  }
}

/** Whether `text` says each word of `pieces` in order (moments, written in each place's own format, between them). */
function saysInOrder(text: string, pieces: ReadonlyArray<string | { at: number }>): boolean {
  let from = 0;
  for (const piece of pieces) {
    if (typeof piece !== 'string') continue;
    const found = text.indexOf(piece, from);
    if (found < 0) return false;
    from = found + piece.length;
  }
  return true;
}

const dir = tempFolder('cronbeat-vocabulary-');
const cases: Record<Problem, { id: number; name: string; reason: MonitorReason; notification: ReturnType<typeof presentNotification>; alert: NonNullable<unknown> }> = {} as never;
let serve: RunningAgent | null = null;
let token = '';

beforeAll(async () => {
  const fixture = engineFixture(at('2026-11-21T00:00:00Z'), dir);
  // failed: the job exited 3.
  const failed = fixture.monitor({ name: 'nightly-backup', schedule: '0 3 * * *', timezone: 'Europe/Paris', duration: 30, now: at('2026-11-20T12:00:00Z') });
  await fixture.pulse(failed.token, at('2026-11-21T02:00:04Z'), { kind: 'start', rid: 'r1' });
  await fixture.pulse(failed.token, at('2026-11-21T02:00:16Z'), { kind: 'fail', exitCode: 3, rid: 'r1' });
  // missed: the 12:00 run did not come; the 11:00 one did.
  const missed = fixture.monitor({ name: 'hourly-sync', schedule: '0 * * * *', timezone: 'Europe/Paris', duration: 5, now: at('2026-11-21T10:30:00Z') });
  await fixture.pulse(missed.token, at('2026-11-21T11:00:10Z'));
  // stuck: started 13:20, still running past its 5 min max run time.
  const stuck = fixture.monitor({ name: 'export', schedule: '*/10 * * * *', timezone: 'Europe/Paris', duration: 1, maxRuntime: 5, now: at('2026-11-21T13:15:00Z') });
  await fixture.step(at('2026-11-21T12:06:00Z'));
  await fixture.pulse(stuck.token, at('2026-11-21T13:20:05Z'), { kind: 'start', rid: 's1' });
  await fixture.step(at('2026-11-21T13:26:00Z'));

  for (const [problem, monitor] of [['failed', failed], ['missed', missed], ['stuck', stuck]] as const) {
    const row = fixture.reload(monitor.id);
    const reason = JSON.parse(row.alert_reason_data!) as MonitorReason;
    const stored = fixture.store.notifications.page(1, 100, 0).find((n) => n.alert?.monitor?.id === monitor.id && n.alert.event === 'monitor.failed')!;
    cases[problem] = { id: monitor.id, name: monitor.name, reason, notification: presentNotification(stored), alert: stored.alert! };
  }
  fixture.store.close();
  // The agent's own file name for its database, so an agent on the folder opens this one.
  renameSync(join(dir, 'cronbeat.sqlite'), join(dir, 'cronbeat.db'));
  token = (await runCli(['token', 'create', '--data-dir', dir])).stdout.trim();
  // It only answers the CLI's requests: in this process, for a fraction of a `cronbeat serve`'s CPU.
  serve = await startAgent({ dataDir: dir, port: 0, log: () => {} });
});

afterAll(async () => {
  await serve?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['failed', 'missed', 'stuck'] as const)('%s, in the one vocabulary', (problem) => {
  const words = PROBLEM_WORDS[problem];

  it('the engine kept it as that problem, its sentence led by the word', () => {
    const { reason } = cases[problem];
    expect(problemOf(reason)).toBe(problem);
    expect(reasonPieces(reason)[0]).toBe(`${words.label}: `);
  });

  it('the dashboard: the badge says the word, the sentence beside it the same words', () => {
    const { reason } = cases[problem];
    expect(badgeLabel('failed', problemOf(reason))).toBe(words.label);
    const detail = detailPiecesOf(reason)!;
    const full = reasonPieces(reason);
    const lower = (piece: string | { at: number }) => (typeof piece === 'string' ? piece.toLowerCase() : piece);
    expect(detail.map(lower)).toEqual(full.slice(1).map(lower));
  });

  it('the CLI: list and show say the word and the sentence', async () => {
    const { id, reason } = cases[problem];
    const env = { CRONBEAT_API_TOKEN: token };
    const list = await runCli(['monitor', 'list', '--url', serve!.url], { env });
    expect(list.status).toBe(0);
    const line = list.stdout.split('\n').find((l) => l.startsWith(`${id} `))!;
    expect(line.split(/\s{2,}/)[2]).toBe(words.word);
    const show = await runCli(['monitor', 'show', String(id), '--url', serve!.url], { env });
    expect(show.stdout).toMatch(new RegExp(`^Status: +${words.word}$`, 'm'));
    const alertLine = show.stdout.split('\n').find((l) => l.startsWith('Alert:'))!;
    expect(saysInOrder(alertLine, reasonPieces(reason))).toBe(true);
    const only = await runCli(['monitor', 'list', '--status', problem, '--url', serve!.url], { env });
    const listed = only.stdout.split('\n').filter((l) => /^\d+ /.test(l)).map((l) => Number(l.split(' ')[0]));
    // --status failed is the API's failed status: all three; missed and stuck list their own.
    expect(listed).toEqual(problem === 'failed' ? Object.values(cases).map((c) => c.id) : [id]);
  });

  it.each(CHANNEL_KINDS)('the %s channel says the word and the sentence', (kind) => {
    const { reason, notification, alert } = cases[problem];
    const request = buildRequest(
      { kind, settings: CHANNEL_SETTINGS[kind] as never },
      { id: notification.id, type: notification.type, data: notification.data, alert: alert as never },
      { dashboardUrl: 'http://cronbeat.test:8787', deliveryKey: 'k', adminZone: 'America/New_York', channelName: 'ops' },
    );
    const text = saidBy(request);
    expect(text).toContain(words.word === 'failed' ? ' failed' : words.word);
    expect(saysInOrder(text, reasonPieces(reason))).toBe(true);
  });

  it('the popup says the word and the sentence', () => {
    const { reason, alert } = cases[problem];
    const popup = alertPopup(alert as never, '/monitors');
    expect(`${popup.title}\n${popup.body}`).toContain(words.word);
    if (problem !== 'failed') expect(saysInOrder(popup.body, reasonPieces(reason))).toBe(true);
  });
});

describe('a missed run names the run that did not come and the last one that did', () => {
  it('says "the run due … did not come; last run …", never "no run since the one due"', () => {
    const { reason } = cases.missed;
    expect(reason).toMatchObject({ kind: 'missed', expected_at: '2026-11-21T12:00:00.000000Z', last_run_at: '2026-11-21T11:00:10.000000Z' });
    expect(reasonPieces(reason)).toEqual(['Missed: ', 'the run due ', { at: at('2026-11-21T12:00:00Z') }, ' did not come (grace 5 min)', '; last run ', { at: at('2026-11-21T11:00:10Z') }]);
  });
});
