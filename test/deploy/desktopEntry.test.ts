import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The desktop app's entry, which package.json's `main` no longer names (npm would pack it into
 * the headless package): Electron, given the project folder (`npm start`) or the installers'
 * app.asar, loads index.js then, as Node resolves a folder, and electron-builder checks the
 * same file is in app.asar. Electron itself cannot run here; these read what it reads.
 */

const ROOT = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main?: string; scripts: Record<string, string> };

describe('the desktop app’s entry', () => {
  it('is index.js, which loads the bundle build:main writes', () => {
    expect(pkg.main).toBeUndefined();
    expect(require.resolve(ROOT)).toBe(join(ROOT, 'index.js'));
    expect(pkg.scripts['build:main']).toMatch(/ main\/main\.ts .*--outdir=dist\/main .*--out-extension:\.js=\.cjs/);
    expect(readFileSync(join(ROOT, 'index.js'), 'utf8')).toMatch(/^require\('\.\/dist\/main\/main\.cjs'\);$/m);
  });

  it('goes into the installers with the bundle it loads', () => {
    const config = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
    const files = /^files:\n((?: {2}- .*\n)+)/m.exec(config)?.[1].split('\n').map((line) => line.replace(/^ {2}- /, '').replace(/^"|"$/g, ''));
    expect(files).toEqual(expect.arrayContaining(['package.json', 'index.js', 'dist/main/**']));
  });
});
