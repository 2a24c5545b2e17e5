import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Cronbeat is not on the npm registry, and the name `cronbeat` there is not ours: whoever holds it
 * would be installed, as root for a system service. No page, message or screen a user reads may
 * tell them to install or run it by that name (docs/deploy.md says how to install the tarball).
 */

const ROOT = resolve(__dirname, '../..');
const READ_BY_USERS = ['README.md', 'CHANGELOG.md', 'Dockerfile', 'compose.yaml', 'docs', 'agent', 'renderer/src', 'main'];
const ADVICE = [/\bnpm\s+(?:install|i|add)\s+(?:-g\s+|--global\s+)?cronbeat(?![\w./-])/i, /\bnpx\s+(?:-y\s+|--yes\s+)?cronbeat(?![\w./-])/i, /\bnpm\s+exec\s+cronbeat(?![\w./-])/i];

function files(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .map((name) => join(full, name))
    .filter((file) => statSync(file).isFile() && /\.(md|ts|tsx|html|ya?ml)$|Dockerfile$/.test(file));
}

describe('the unpublished registry name', () => {
  it('is never advised: no npm install, npx or npm exec of `cronbeat` in docs, messages or screens', () => {
    const found: string[] = [];
    for (const file of READ_BY_USERS.flatMap(files)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (ADVICE.some((pattern) => pattern.test(line))) found.push(`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('catches the advice it is there for', () => {
    for (const advice of ['npm install -g cronbeat', 'sudo npm i --global cronbeat', 'npx cronbeat token create', 'npx -y cronbeat serve', 'npm exec cronbeat']) {
      expect(ADVICE.some((pattern) => pattern.test(advice)), advice).toBe(true);
    }
    for (const fine of ['npm install -g ./cronbeat-0.5.0.tgz', 'node dist/cronbeat.cjs token create', 'cronbeat token create']) {
      expect(ADVICE.some((pattern) => pattern.test(fine)), fine).toBe(false);
    }
  });
});
