import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A rule written in several places drifts: one copy changes and the others keep the old rule.
 * These are written once, and every caller uses that one.
 */

const ROOT = resolve(__dirname, '../..');

function sources(): Array<{ file: string; text: string }> {
  return ['agent', 'renderer/src', 'main'].flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.tsx?$/.test(name))
      .map((name) => ({ file: relative(ROOT, join(ROOT, folder, name)), text: readFileSync(join(ROOT, folder, name), 'utf8') })),
  );
}

function where(pattern: RegExp): string[] {
  return sources().flatMap(({ file, text }) =>
    text.split('\n').flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}`] : [])),
  );
}

describe('one place for each rule', () => {
  it('says the most minutes a grace or a max run time may be once', () => {
    expect(where(/525_?600/)).toEqual(['agent/domain/monitors/minutes.ts:7']);
  });

  it('turns a thrown value into words once: describeError, never a copy of it', () => {
    expect(where(/function describeError\b/)).toEqual(['agent/domain/text/errorText.ts:5']);
    expect(where(/(\w+) instanceof Error \? \1\.message : String\(\1\)/)).toEqual(['agent/domain/text/errorText.ts:6']);
  });
});
