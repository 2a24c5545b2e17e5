import type { TestAgent } from '../helpers/testAgent';

export interface CreatedMonitor {
  id: number;
  token: string;
  name: string;
  is_alerted: number;
}

/** A monitor made through the API, due every minute. */
export async function createMonitor(agent: TestAgent, name = 'nightly backup'): Promise<CreatedMonitor> {
  const response = await agent.api('/api/monitors', { method: 'POST', json: { name, timezone: 'UTC', schedule: '* * * * *', duration: 5 } });
  if (response.status !== 201) throw new Error(`create monitor: ${response.status} ${await response.text()}`);
  return (await response.json()) as CreatedMonitor;
}

export interface PulseRecord {
  kind: string;
  exit_code: number | null;
  rid: string | null;
  received_at: string;
  duration_ms: number | null;
  body: string;
  body_truncated: boolean;
}

/** A monitor's pulses, oldest first. */
export async function pulsesOf(agent: TestAgent, monitorId: number): Promise<PulseRecord[]> {
  const response = await agent.api(`/api/monitors/${monitorId}/pulses?per_page=100`);
  if (response.status !== 200) throw new Error(`pulses: ${response.status} ${await response.text()}`);
  const page = (await response.json()) as { data: PulseRecord[] };
  return page.data.reverse();
}

export async function monitorOf(agent: TestAgent, monitorId: number): Promise<CreatedMonitor> {
  return (await (await agent.api(`/api/monitors/${monitorId}`)).json()) as CreatedMonitor;
}
