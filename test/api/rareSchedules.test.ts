import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A schedule whose runs are years apart is accepted everywhere (a job's line, the API's create and
 * edit) and answered at once: its grace defaults to 60 minutes, and next_due_at is its next run,
 * years on, plus the grace. How little work that takes is asserted in test/domain/schedules/cronDays.test.ts
 * and measured in test/bench/rareSchedules.ts.
 */

let agent: TestAgent;
const now = Date.parse('2026-11-27T14:00:00Z');
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
});
afterAll(() => agent.stop());

describe('a schedule whose runs are years apart', () => {
  it("made by a job's line: the grace cap and the run years on", async () => {
    const key = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now }).token;
    const answers = await Promise.all(
      ['0 0 29 2 *', '0 0 * 2 1#5'].map((schedule, i) =>
        fetch(`${agent.url}/api/pulse/key/${key}/rare-${i}?${new URLSearchParams({ create: '1', schedule, tz: 'Europe/Paris' })}`),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    const monitors = await (await agent.api('/api/monitors')).json();
    const shown = (slug: string) => monitors.find((m: { slug: string }) => m.slug === slug);
    expect(shown('rare-0')).toMatchObject({ duration: 60, next_due_at: '2028-02-29T00:00:00.000000Z', status: 'monitoring' });
    expect(shown('rare-1')).toMatchObject({ duration: 60, next_due_at: '2044-02-29T00:00:00.000000Z' });
  });

  it('made and edited through the API', async () => {
    const made = await agent.api('/api/monitors', { method: 'POST', json: { name: 'Leap day', timezone: 'UTC', schedule: '0 0 29 2 *', duration: 30 } });
    expect(made.status).toBe(201);
    const { id, next_due_at } = await made.json();
    expect(next_due_at).toBe('2028-02-29T00:30:00.000000Z');
    const edited = await agent.api(`/api/monitors/${id}`, { method: 'PATCH', json: { schedule: '0 0 * 2 1#5' } });
    expect((await edited.json()).next_due_at).toBe('2044-02-29T00:30:00.000000Z');
  });
});
