import { readFileSync } from 'node:fs';

/*
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self time,
 * and the most total time, so a missed target points at its cause.
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

export function summarise(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const label = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules\/)?/, '$1')}:${node.callFrame.lineNumber + 1}`;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const node = byId.get(id)!;
    self.set(label(node), (self.get(label(node)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!);
      if (!seen.has(name)) total.set(name, (total.get(name) ?? 0) + ms), seen.add(name);
    }
  });
  const table = (map: Map<string, number>) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, ms]) => `${ms.toFixed(1).padStart(9)} ms  ${name}`).join('\n');
  return `Self time:\n${table(self)}\n\nTotal time:\n${table(total)}`;
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(top ?? 25)));
}
