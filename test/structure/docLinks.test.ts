import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The pages link to each other's headings (`cli.md#getting-cronbeat`). A heading reworded, or a
 * link typed by hand, leaves a link that opens the page at its top on GitHub, silently: the
 * reader never reaches the paragraph the sentence promised. Every relative link of README.md and
 * docs/ must name a file that exists and, with `#anchor`, a heading of it as GitHub spells anchors.
 */

const ROOT = resolve(__dirname, '../..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The lines of a page outside its fenced code blocks, with their numbers. */
function proseLines(text: string): Array<[number, string]> {
  const lines: Array<[number, string]> = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push([index + 1, line]);
  });
  return lines;
}

/** GitHub's anchor for a heading: its text as shown (no markup), lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  const shown = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .replace(/(^|\s)_+|_+(\s|$)/g, '$1$2');
  return shown
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings; a repeated one gets -1, -2… as on GitHub. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, line] of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]);
    const times = seen.get(slug);
    seen.set(slug, times === undefined ? 0 : times + 1);
    anchors.add(times === undefined ? slug : `${slug}-${times + 1}`);
  }
  return anchors;
}

function brokenLinks(): string[] {
  const broken: string[] = [];
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (page: string): Set<string> => {
    if (!anchors.has(page)) anchors.set(page, anchorsOf(readFileSync(join(ROOT, page), 'utf8')));
    return anchors.get(page)!;
  };
  for (const page of PAGES) {
    for (const [number, line] of proseLines(readFileSync(join(ROOT, page), 'utf8'))) {
      for (const [, target] of line.matchAll(/\]\(([^)\s]*)\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
        const [path, anchor] = target.split('#');
        const file = path ? normalize(join(dirname(page), path)) : page;
        if (!existsSync(join(ROOT, file))) broken.push(`${page}:${number}: ${target} (no such file)`);
        else if (anchor !== undefined && file.endsWith('.md') && !anchorsIn(file).has(anchor)) broken.push(`${page}:${number}: ${target} (no such heading)`);
      }
    }
  }
  return broken;
}

describe('links between the pages', () => {
  it('name files that exist and headings those files have', () => {
    expect(brokenLinks()).toEqual([]);
  });

  it('spells anchors as GitHub does', () => {
    expect(githubSlug('Letting your servers reach the agent: `--host 0.0.0.0`')).toBe('letting-your-servers-reach-the-agent---host-0000');
    expect(githubSlug('Three kinds in the one field: cron, systemd calendar events, periods')).toBe('three-kinds-in-the-one-field-cron-systemd-calendar-events-periods');
    expect(githubSlug("Monitors made by the job's own line")).toBe('monitors-made-by-the-jobs-own-line');
    expect(githubSlug('How this machine runs the CLI: `GET /api/cli`')).toBe('how-this-machine-runs-the-cli-get-apicli');
    expect(githubSlug('3. Behind a TLS reverse proxy')).toBe('3-behind-a-tls-reverse-proxy');
    expect([...anchorsOf('# Notes\n\n## Notes\n\n```\n# not a heading\n```\n## Notes\n')]).toEqual(['notes', 'notes-1', 'notes-2']);
  });
});
