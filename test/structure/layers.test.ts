import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLayers, type LayerViolation } from './layers.mjs';

/*
 * The layer rules (.dependency-cruiser.cjs) catch every leak a review of the tree found (that the tree has
 * none is `npm run lint:layers`, part of `npm test`).
 * Each leak is put back, as the line that once made it, into a scratch copy of agent/ and
 * renderer/src; one run of the check must name every one of them.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/** [file, the import that leaks, the rule that must catch it, what it must point at]. */
const LEAKS: Array<[file: string, line: string, rule: string, to: string]> = [
  // The engine imported the API.
  ['agent/engine/delivery/messages.ts', "import type { presentChannel } from '../../api/present/present';", 'engine-not-api-cli', 'agent/api/present/present.ts'],
  ['agent/engine/delivery/worker.ts', "import { presentMonitor } from '../../api/present/present';", 'engine-not-api-cli', 'agent/api/present/present.ts'],
  ['agent/engine/loop.ts', "import { runCommand } from '../cli/commands/run';", 'engine-not-api-cli', 'agent/cli/commands/run.ts'],
  // The job side imported storage.
  ['agent/client/spool/spoolFolder.ts', "import { openDatabase } from '../../db/open';", 'client-not-db-engine-api', 'agent/db/open.ts'],
  // The domain imported the engine.
  ['agent/domain/alerts/monitorPopups.ts', "import type { Notifier } from '../../engine/popups/notifier';", 'domain-imports-nothing-of-ours', 'agent/engine/popups/notifier.ts'],
  ['agent/domain/monitors/dueTime.ts', "import { readFileSync } from 'node:fs';", 'domain-does-no-io', 'fs'],
  // The API reached into the CLI for shellQuote.
  ['agent/api/present/cliCommand.ts', "import { rewriteJobLine } from '../../cli/crontab/rewrite';", 'api-not-cli', 'agent/cli/crontab/rewrite.ts'],
  // The contract builds on the domain alone; storage knows none of the layers above it.
  ['agent/contract/monitors.ts', "import type { MonitorRow } from '../db/monitors';", 'contract-imports-only-domain', 'agent/db/monitors.ts'],
  ['agent/contract/channels/index.ts', "import { timingOf } from '../../engine/monitors/monitorState';", 'contract-imports-only-domain', 'agent/engine/monitors/monitorState.ts'],
  ['agent/contract/servers.ts', "import { isIP } from 'node:net';", 'contract-loads-in-the-browser', 'net'],
  ['agent/db/monitors.ts', "import { presentMonitor } from '../api/present/present';", 'db-not-api-engine-cli', 'agent/api/present/present.ts'],
  ['agent/dataFolder/dataDir.ts', "import { openStore } from '../db/store';", 'data-folder-imports-only-domain', 'agent/db/store.ts'],
  // The headless core never needs Electron; the dashboard only the contract and the domain.
  ['agent/agent.ts', "import { app } from 'electron';", 'agent-not-electron', 'electron'],
  ['renderer/src/api/types.ts', "import type { presentMonitor } from '../../../agent/api/present/present';", 'renderer-only-contract-domain', 'agent/api/present/present.ts'],
  ['renderer/src/lib/format.ts', "import { openStore } from '../../../agent/db/store';", 'renderer-only-contract-domain', 'agent/db/store.ts'],
  // Inside a layer, subjects build one way: a monitor's rules never run an alert's, nor the
  // overdue monitors' step the delivery's reminders (the loop's step joins them at the root).
  ['agent/domain/monitors/pulseEffect.ts', "import { readableOutput } from '../alerts/words';", 'domain-monitors-builds-on-earlier-subjects', 'agent/domain/alerts/words.ts'],
  ['agent/engine/monitors/alertGate.ts', "import { sendReminders } from '../delivery/reminders';", 'engine-monitors-builds-on-earlier-subjects', 'agent/engine/delivery/reminders.ts'],
];

/** The two import cycles a review found: [file, the import that closes the loop, the file it loops through]. */
const CYCLES: Array<[file: string, line: string, through: string]> = [
  ['agent/engine/certificates/record.ts', "import type { CertificateSchedulerOptions } from './scheduler';", 'agent/engine/certificates/scheduler.ts'],
  ['agent/client/spool/spoolLine.ts', "import type { Spool } from './spool';", 'agent/client/spool/spool.ts'],
];

let scratch: string;
let violations: LayerViolation[];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cronbeat-layers-'));
  for (const folder of ['agent', 'renderer/src']) cpSync(join(ROOT, folder), join(scratch, folder), { recursive: true });
  cpSync(join(ROOT, 'tsconfig.json'), join(scratch, 'tsconfig.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'));
  for (const [file, line] of [...LEAKS, ...CYCLES]) appendFileSync(join(scratch, file), `\n${line}\n`);
  violations = await checkLayers(['agent', 'renderer/src'], scratch);
}, 120_000);
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the layer check', () => {
  it.each(LEAKS)('catches %s importing across a layer (%s)', (file, _line, rule, to) => {
    expect(violations).toContainEqual({ rule, from: file, to: expect.stringMatching(new RegExp(`(^|/|node:)${to}`)) });
  });

  it.each(CYCLES)('catches the cycle through %s', (file, _line, through) => {
    const cycles = violations.filter((v) => v.rule === 'no-cycles');
    expect(cycles.some((v) => v.to.includes(file) && v.to.includes(through))).toBe(true);
  });

  it('finds nothing else in the scratch copy', () => {
    const expected = LEAKS.length;
    expect(violations.filter((v) => v.rule !== 'no-cycles')).toHaveLength(expected);
  });
});
