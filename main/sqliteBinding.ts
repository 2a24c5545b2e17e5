import { createRequire } from 'node:module';

/**
 * In development `npm start` builds better-sqlite3 for Electron's ABI next to (not over) the Node
 * build that tests and the headless agent use, and names the binding in CRONBEAT_SQLITE_BINDING.
 * better-sqlite3 finds its binding through the `bindings` package on first open; this answers that
 * lookup with the Electron build. Installed apps have it rebuilt in place and never set the variable.
 */
export function useSqliteBinding(bindingFile: string | undefined): void {
  if (!bindingFile) return;
  const fromSqlite = createRequire(require.resolve('better-sqlite3'));
  const bindingsModule = fromSqlite.resolve('bindings');
  const addon: unknown = fromSqlite(bindingFile);
  const cache = fromSqlite.cache as Record<string, unknown>;
  cache[bindingsModule] = { id: bindingsModule, filename: bindingsModule, loaded: true, exports: () => addon, children: [], paths: [] };
}
