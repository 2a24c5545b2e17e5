import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type IForbiddenRuleType, type IReporterOutput } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/*
 * The layer check of `npm test` (npm run lint:layers): dependency-cruiser with the rules in
 * .dependency-cruiser.cjs. Called through its API because its command line (npx depcruise)
 * refuses Node 20, which Cronbeat supports; the API runs on it.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const config = createRequire(import.meta.url)(`${ROOT}.dependency-cruiser.cjs`) as {
  forbidden: IForbiddenRuleType[];
  options: Record<string, unknown>;
};

export interface LayerViolation {
  rule: string;
  from: string;
  to: string;
}

/** The rules' violations among `paths` (relative to `baseDir`, default the repository). */
export async function checkLayers(paths: string[], baseDir = ROOT): Promise<LayerViolation[]> {
  const cwd = process.cwd();
  process.chdir(baseDir); // dependency-cruiser resolves paths and rule patterns from the working folder
  try {
    const result = (await cruise(
      paths,
      { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } },
      undefined,
      { tsConfig: extractTSConfig(`${baseDir}/tsconfig.json`) },
    )) as IReporterOutput;
    const { summary } = result.output as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string; cycle?: Array<{ name: string }> }> } };
    return summary.violations.map((v) => ({
      rule: v.rule.name,
      from: v.from,
      to: v.cycle?.length ? v.cycle.map((step) => step.name).join(' → ') : v.to,
    }));
  } finally {
    process.chdir(cwd);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void checkLayers(['agent', 'main', 'renderer/src']).then((violations) => {
  for (const v of violations) console.error(`${v.rule}: ${v.from} → ${v.to}`);
  console.error(violations.length === 0 ? 'Layers: no violations.' : `Layers: ${violations.length} violation(s); the rules and why are in .dependency-cruiser.cjs and docs/development.md.`);
  process.exitCode = violations.length === 0 ? 0 : 1;
  });
}
