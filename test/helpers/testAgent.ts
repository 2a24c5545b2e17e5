import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAgent, type AgentOptions, type RunningAgent } from '../../agent/agent';

export interface TestAgent extends RunningAgent {
  dataDir: string;
  /** An API token of company 1. */
  token: string;
  /** A fresh token of another company. */
  tokenFor(companyId: number): string;
  /** fetch against the agent with company 1's token (or `token: null` for none). */
  api(path: string, init?: RequestInit & { token?: string | null; json?: unknown }): Promise<Response>;
  stop(): Promise<void>;
}

export function tempDir(prefix = 'cronbeat-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A real agent on 127.0.0.1 and a free port, over a real SQLite file in a temporary folder. */
export async function startTestAgent(options: Partial<AgentOptions> = {}): Promise<TestAgent> {
  const dataDir = options.dataDir ?? tempDir();
  const agent = await startAgent({ port: 0, log: () => {}, ...options, dataDir });
  const tokenFor = (companyId: number) => {
    agent.store.companies.ensure(companyId, agent.clock());
    return agent.store.apiTokens.create({ companyId, name: 'test', now: agent.clock() }).token;
  };
  const token = tokenFor(1);
  const api: TestAgent['api'] = (path, init = {}) => {
    const { token: as = token, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (as !== null) headers.set('Authorization', `Bearer ${as}`);
    if (json !== undefined) headers.set('Content-Type', 'application/json');
    return fetch(agent.url + path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
  };
  return Object.assign(agent, {
    dataDir,
    token,
    tokenFor,
    api,
    async stop() {
      await agent.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

/** The spec's timestamp format: UTC, six fractional digits, trailing Z. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Notifications and deliveries are keyed by time-ordered UUIDs (agent/db/uuidV7.ts). */
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
