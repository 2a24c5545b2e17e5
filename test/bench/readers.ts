import { Agent, request } from 'node:http';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { openStore } from '../../agent/db/store';
import { figure, type Figure } from './report';
import { median, msSince, round } from './stats';

/*
 * Measurement 3, outside readers: a Prometheus scrape of /metrics (its size, compressed as
 * Prometheus asks, and how long /api/health waits while it is built) and a public tag badge.
 */

const RUNS = 9;
const TAGS = 20;

/** Tags on every monitor of company 1 ("team-0" … "team-19" and "nightly") and a badge key; the badge key. */
export function prepareReaders(dataDir: string, now: number): string {
  const store = openStore(databaseFile(dataDir), now);
  try {
    store.db.prepare(`UPDATE monitors SET tags = 'team-' || (id % ${TAGS}) || ' nightly' WHERE company_id = 1`).run();
    return store.apiTokens.create({ companyId: 1, name: 'bench badges', scope: 'badge', now }).token;
  } finally {
    store.close();
  }
}

interface Answer {
  status: number;
  bytes: number;
  ms: number;
  encoding: string | undefined;
}

function get(url: string, agent: Agent | false, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    request(url, { agent, headers }, (response) => {
      let bytes = 0;
      response
        .on('data', (chunk: Buffer) => (bytes += chunk.length))
        .on('end', () => resolve({ status: response.statusCode ?? 0, bytes, ms: msSince(start), encoding: response.headers['content-encoding'] }))
        .on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function ok(answer: Answer, what: string): Answer {
  if (answer.status !== 200) throw new Error(`${what} answered ${answer.status}`);
  return answer;
}

export interface ReadersContext {
  agentUrl: string;
  bareUrl: string;
  token: string;
  badgeKey: string;
}

export async function measureReaders({ agentUrl, bareUrl, token, badgeKey }: ReadersContext): Promise<Figure[]> {
  // Scrapes and health checks each on a new connection: a kept-alive one may sit idle past the
  // agent's keep-alive timeout while a slow scrape is read. Badges back to back on one connection.
  const scraper = false;
  const prober = false;
  const badges = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const auth = { Authorization: `Bearer ${token}` };
    const prometheus = { ...auth, 'Accept-Encoding': 'gzip' };
    const plain = ok(await get(`${agentUrl}/metrics`, scraper, auth), '/metrics');
    const health = `${agentUrl}/api/health`;
    const idle: number[] = [];
    for (let i = 0; i < RUNS + 2; i++) idle.push(ok(await get(health, prober), 'health').ms);

    // Each scrape with /api/health asked one after the other on another connection until it ends:
    // the longest health answer is the longest the scrape held the event loop.
    const waits: number[] = [];
    const scrapes: number[] = [];
    const refused: number[] = [];
    let compressed: Answer | null = null;
    for (let i = -1; i < RUNS; i++) {
      let done = false;
      const scrape = get(`${agentUrl}/metrics`, scraper, prometheus).finally(() => (done = true));
      let longest = 0;
      try {
        while (!done) {
          // A health check the blocked agent timed out (408) still says how long it waited.
          const answer = await get(health, prober);
          if (answer.status !== 200) refused.push(answer.status);
          longest = Math.max(longest, answer.ms);
        }
      } finally {
        compressed = ok(await scrape, '/metrics');
      }
      if (i >= 0) {
        waits.push(longest);
        scrapes.push(compressed.ms);
      }
    }

    const badgeUrl = `${agentUrl}/api/badges/${badgeKey}/tags/team-7.svg`;
    const badge: number[] = [];
    let badgeBytes = 0;
    for (let i = -2; i < RUNS; i++) {
      const answer = ok(await get(badgeUrl, badges), 'tag badge');
      badgeBytes = answer.bytes;
      if (i >= 0) badge.push(answer.ms);
    }
    const bare: number[] = [];
    for (let i = -2; i < RUNS; i++) {
      const answer = ok(await get(`${bareUrl}/bytes/${badgeBytes}`, badges), 'bare');
      if (i >= 0) bare.push(answer.ms);
    }

    return [
      figure({
        section: '3',
        name: '/api/health during a /metrics scrape, 10,000 monitors (longest wait)',
        value: round(median(waits)),
        unit: 'ms',
        target: { below: 50 },
        baseline: { name: '/api/health with no scrape', value: round(median(idle)) },
        note: `median of ${RUNS} scrapes, worst ${round(Math.max(...waits), 1)} ms; scrape took ${round(median(scrapes))} ms${refused.length ? `; health answered ${[...new Set(refused)].join(', ')} ${refused.length} times` : ''}`,
      }),
      figure({
        section: '3',
        name: '/metrics size sent to Prometheus (Accept-Encoding: gzip)',
        value: round((compressed?.bytes ?? 0) / 1e6, 2),
        unit: 'MB',
        baseline: { name: 'uncompressed', value: round(plain.bytes / 1e6, 2) },
        note: `content-encoding ${compressed?.encoding ?? 'none'}`,
      }),
      figure({
        section: '3',
        name: 'tag badge (.svg), 500 of 10,000 monitors',
        value: round(median(badge)),
        unit: 'ms',
        target: { below: 2 },
        baseline: { name: 'bare server, same bytes', value: round(median(bare)) },
        note: `median of ${RUNS}, max ${round(Math.max(...badge), 1)} ms`,
      }),
    ];
  } finally {
    badges.destroy();
  }
}
