import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNEL_KIND_DESCRIPTIONS, CHANNEL_KINDS } from '../../agent/contract/channels/kinds';
import { CHANNEL_KIND_MODULES } from '../../agent/engine/delivery/kinds';

/*
 * A channel kind is said once: its description in agent/contract/channels/kinds/ (one line in
 * that folder's list) and its folder in agent/engine/delivery/kinds/. Every other list of kinds
 * (the API's, the secret and destination settings, the dashboard's labels and forms) is read from
 * the one list, so adding a kind touches no other list.
 */

const ROOT = resolve(__dirname, '../..');
const KIND_NAMES = Object.keys(CHANNEL_KIND_DESCRIPTIONS);
const SOURCES = ['agent', 'renderer/src', 'main'];

function sourceFiles(path: string): string[] {
  const full = join(ROOT, path);
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .map((name) => join(full, name))
    .filter((file) => /\.(ts|tsx)$/.test(file) && statSync(file).isFile());
}

/** The kinds a text names as quoted strings or as keys of an object: three or more make a list of kinds. */
function kindsListedIn(text: string): string[] {
  const names = KIND_NAMES.join('|');
  const quoted = new RegExp(`['"\`](${names})['"\`]`, 'g');
  const keys = new RegExp(`^\\s*(${names})\\s*:`, 'gm');
  return [...new Set([...text.matchAll(quoted), ...text.matchAll(keys)].map((match) => match[1]))].sort();
}

describe('channel kinds', () => {
  it('the engine has a module for each kind of the one list, in its order, and no other', () => {
    expect(Object.keys(CHANNEL_KIND_MODULES)).toEqual(CHANNEL_KINDS);
  });

  it("each kind's secrets, destination and form name settings of its own schema", () => {
    for (const [kind, description] of Object.entries(CHANNEL_KIND_DESCRIPTIONS)) {
      const settings = Object.keys(description.settings.shape);
      const named: string[] = [...description.secrets, ...description.destination, ...description.form.map((field) => field.setting)];
      expect(named.filter((setting) => !settings.includes(setting)), kind).toEqual([]);
      expect(description.label, kind).not.toBe('');
    }
  });

  it('no source file keeps a list of kinds of its own', () => {
    const lists = SOURCES.flatMap(sourceFiles)
      .map((file) => ({ file: relative(ROOT, file), kinds: kindsListedIn(readFileSync(file, 'utf8')) }))
      .filter(({ kinds }) => kinds.length >= 3);
    expect(lists).toEqual([]);
  });

  it('docs/channels.md has a section and a row of the permanent errors for each kind', () => {
    const page = readFileSync(join(ROOT, 'docs/channels.md'), 'utf8');
    const permanent = page.slice(page.indexOf('## Permanent errors'), page.indexOf('\n## ', page.indexOf('## Permanent errors') + 1));
    for (const { label } of Object.values(CHANNEL_KIND_DESCRIPTIONS)) {
      expect(page, label).toContain(`\n## ${label}\n`);
      expect(permanent, label).toContain(`\n| ${label} | `);
    }
  });

  it('would see the lists that were there before', () => {
    expect(kindsListedIn("export const CHANNEL_KINDS = ['webhook', 'ntfy', 'slack', 'discord', 'email', 'telegram'] as const;")).toHaveLength(6);
    expect(kindsListedIn('export const SECRET_SETTINGS = {\n  webhook: [\'secret\'],\n  ntfy: [\'access_token\'],\n  slack: [\'webhook_url\'],\n};')).toEqual(['ntfy', 'slack', 'webhook']);
    expect(kindsListedIn("case 'webhook':\n  return s.url;\ncase 'ntfy':\n  return s.topic;\ncase 'email':\n  return s.to;")).toHaveLength(3);
  });
});
