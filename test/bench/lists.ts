import { figure, type Figure } from './report';
import { timeGets } from './httpClient';
import { median, round } from './stats';

export interface ListsContext {
  agentUrl: string;
  bareUrl: string;
  token: string;
}

const RUNS = 9;

/**
 * Measurement 3: the lists, timed from request to last byte over a kept-alive connection
 * (median of RUNS), each next to the bare server sending a body of the same size.
 */
export async function measureLists({ agentUrl, bareUrl, token }: ListsContext): Promise<Figure[]> {
  const cases = [
    { name: 'GET /api/monitors, 10,000 rows', path: '/api/monitors', below: 100 },
    { name: 'GET /api/servers, 10,000 rows', path: '/api/servers', below: 150 },
    // Not in the list; held to the same bar as the other lists.
    { name: 'GET /api/ssl-certificates, 1,000 rows', path: '/api/ssl-certificates', below: 150 },
    { name: 'GET /api/notifications page 1 of 1,000,000', path: '/api/notifications', below: 10 },
    { name: 'GET /api/notifications page 10,000 (per_page 10)', path: '/api/notifications?page=10000&per_page=10', below: 100 },
  ];
  const figures: Figure[] = [];
  for (const { name, path, below } of cases) {
    const { durations, bytes } = await timeGets(agentUrl + path, RUNS, token);
    const bare = await timeGets(`${bareUrl}/bytes/${bytes}`, RUNS);
    figures.push(
      figure({
        section: '3',
        name,
        value: round(median(durations)),
        unit: 'ms',
        target: { below },
        baseline: { name: `bare server, same ${formatBytes(bytes)}`, value: round(median(bare.durations)) },
        note: `median of ${RUNS}, max ${round(Math.max(...durations), 1)} ms`,
      }),
    );
  }
  return figures;
}

function formatBytes(bytes: number): string {
  return bytes >= 1e6 ? `${round(bytes / 1e6, 1)} MB` : `${round(bytes / 1e3, 1)} kB`;
}
