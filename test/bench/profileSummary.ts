import { readFileSync } from 'node:fs';

/*
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time by layer (our bundle, Koa,
 * Node, the kernel's socket writes, GC, idle), the functions with the most self time, and the
 * most total time, so a missed target points at its cause.
 * Usage: node --import tsx test/bench/profileSummary.ts FILE.cpuprofile [TOP]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const KOA = /node_modules\/(koa|@koa|koa-compose|path-to-regexp|http-errors|statuses|on-finished|ee-first|vary|content-type|mime-types|mime-db|accepts|negotiator|type-is|depd|delegates|fresh|cookies|encodeurl|escape-html|destroy|only|parseurl)\//;

/** The layer a frame belongs to. Time in better-sqlite3's native calls shows as self time of the bundle's function that made the call. */
function layerOf({ url, functionName }: ProfileNode['callFrame']): string {
  if (functionName === 'writev' && !url) return 'socket writes (writev, kernel time included)';
  if (!url) return functionName.startsWith('(') ? functionName : `native ${functionName}`;
  if (url.includes('better-sqlite3')) return 'better-sqlite3 (JS side: transactions)';
  if (url.includes('cron-parser') || url.includes('luxon')) return 'cron-parser';
  if (KOA.test(url)) return 'Koa, router and their helpers';
  if (url.includes('node_modules/zod')) return 'zod';
  if (url.startsWith('node:')) return 'Node core (http, net, streams, timers)';
  if (url.endsWith('cronbeat.cjs')) return 'Cronbeat bundle, SQLite statements included';
  return `other: ${url.replace(/^.*node_modules\//, '').split('/')[0]}`;
}

export function summarise(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const layers = new Map<string, number>();
  const total = new Map<string, number>();
  const label = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules\/)?/, '$1')}:${node.callFrame.lineNumber + 1}`;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const node = byId.get(id)!;
    layers.set(layerOf(node.callFrame), (layers.get(layerOf(node.callFrame)) ?? 0) + ms);
    self.set(label(node), (self.get(label(node)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!);
      if (!seen.has(name)) {
        total.set(name, (total.get(name) ?? 0) + ms);
        seen.add(name);
      }
    }
  });
  const table = (map: Map<string, number>) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => `${ms.toFixed(1).padStart(9)} ms  ${name}`).join('\n');
  return `Self time by layer:\n${table(layers)}\n\nSelf time:\n${table(self)}\n\nTotal time:\n${table(total)}`;
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(top ?? 25)));
}
