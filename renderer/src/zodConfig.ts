import { z } from 'zod';

/*
 * Zod compiles its object checks with `new Function` when it may, and first probes whether it
 * may: under the dashboard's Content-Security-Policy (no 'unsafe-eval') that probe is refused and
 * reported as a violation on every page load, although zod then checks without it. Told not to
 * compile, it never probes. Imported first, before any schema is built.
 */
z.config({ jitless: true });
