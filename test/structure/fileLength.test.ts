import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * No source file grows past 300 lines (docs/development.md): one that does is split by what it
 * does. Source is what ships: the agent, the desktop shell and the dashboard, stylesheets included.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const MOST_LINES = 300;
const SOURCE = /\.(ts|tsx|mts|cts|css)$/;

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

describe('source files', () => {
  it(`are ${MOST_LINES} lines at most`, () => {
    const files = ['agent', 'main', 'renderer/src'].flatMap(filesUnder);
    expect(files.length).toBeGreaterThan(300);
    const long = files
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').replace(/\n$/, '').split('\n').length }))
      .filter(({ lines }) => lines > MOST_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
