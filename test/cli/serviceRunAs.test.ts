import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';

/*
 * `--run-as` names the user a system service runs as. Given without `--system`, install wrote a
 * service of the user who typed it (root, under sudo) and dropped the user asked for without a
 * word: an agent running as root where `cronbeat` was meant. It is a usage error, before anything
 * is written.
 */
describe('cronbeat service --run-as without --system', () => {
  for (const scope of [[], ['--user']]) {
    it(`install ${scope.join(' ')} --run-as cronbeat: a usage error naming --system, nothing written`, async () => {
      const root = tempFolder();
      const unitDir = join(root, 'units');
      const result = await runCli(['service', 'install', ...scope, '--run-as', 'cronbeat', '--unit-dir', unitDir, '--data-dir', join(root, 'data')], {
        env: { XDG_CONFIG_HOME: join(root, 'config'), PATH: join(root, 'none') },
      });
      expect(result.stderr).toBe('cronbeat: --run-as is the user a system service runs as: add --system (sudo cronbeat service install --system --run-as cronbeat); a --user service runs as you.\n');
      expect(result.status).toBe(2);
      expect(readdirSync(root)).toEqual([]);
    });
  }
});
