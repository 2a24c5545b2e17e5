import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What a figure is compared with: a limit of its own, or a share of its baseline. */
export type Target =
  /** Below a limit; with `whenBaselineBelow`, only held when the baseline itself is below that. */
  | { below: number; whenBaselineBelow?: number }
  | { atLeastShareOfBaseline: number }
  /** At most this many times the baseline (a cost, such as CPU time per request). */
  | { atMostTimesBaseline: number }
  | { equals: number };

/** One measured figure, its target and the baseline measured in the same run. */
export interface Figure {
  section: string;
  name: string;
  value: number | null;
  unit: string;
  target?: Target;
  baseline?: { name: string; value: number | null };
  /** True or false when there is a target, null when the figure is informative only or was not measured. */
  met: boolean | null;
  note?: string;
}

export type FigureInput = Omit<Figure, 'met'>;

/** Fills `met` from the target: below a limit, equal to a count, or a share of the baseline. */
export function figure(input: FigureInput): Figure {
  const { value, target, baseline } = input;
  let met: boolean | null = null;
  if (target && value !== null) {
    if ('below' in target) met = appliesTo(target, baseline) ? value < target.below : null;
    else if ('equals' in target) met = value === target.equals;
    else if ('atMostTimesBaseline' in target) met = baseline?.value != null ? value <= target.atMostTimesBaseline * baseline.value : null;
    else if (baseline?.value != null) met = value >= target.atLeastShareOfBaseline * baseline.value;
  }
  return { ...input, met };
}

function appliesTo(target: { whenBaselineBelow?: number }, baseline: FigureInput['baseline']): boolean {
  return target.whenBaselineBelow === undefined || (baseline?.value != null && baseline.value < target.whenBaselineBelow);
}

/** A figure that could not be measured (the feature is missing or the step failed). */
export function notMeasured(section: string, name: string, unit: string, target: Target | undefined, why: string): Figure {
  return { section, name, value: null, unit, target, met: null, note: why };
}

function formatNumber(value: number | null, unit: string): string {
  if (value === null) return '—';
  const digits = Math.abs(value) >= 100 || Number.isInteger(value) ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })} ${unit}`.trim();
}

export function formatTarget(target: Target | undefined, unit: string): string {
  if (!target) return '';
  if ('below' in target) {
    const when = target.whenBaselineBelow === undefined ? '' : ` when baseline < ${formatNumber(target.whenBaselineBelow, unit)}`;
    return `< ${formatNumber(target.below, unit)}${when}`;
  }
  if ('equals' in target) return `= ${formatNumber(target.equals, unit)}`;
  if ('atMostTimesBaseline' in target) return `≤ ${target.atMostTimesBaseline}× baseline`;
  return `≥ ${Math.round(target.atLeastShareOfBaseline * 100)}% of baseline`;
}

function verdict(met: boolean | null, value: number | null, target: Target | undefined): string {
  if (value === null) return 'not measured';
  if (met === null) return target ? 'not applicable' : '';
  return met ? 'met' : 'MISSED';
}

/** The figures as rows of a Markdown table (it also reads well in a terminal). */
export function markdownTable(figures: Figure[]): string {
  const header = ['#', 'Measurement', 'Value', 'Target', 'Baseline (same run)', 'Result'];
  const rows = figures.map((f) => [
    f.section,
    f.name,
    formatNumber(f.value, f.unit),
    formatTarget(f.target, f.unit),
    f.baseline ? `${f.baseline.name}: ${formatNumber(f.baseline.value, f.unit)}` : '',
    [verdict(f.met, f.value, f.target), f.note && verdict(f.met, f.value, f.target) ? `(${f.note})` : f.note].filter(Boolean).join(' '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  seconds: number;
  machine: Record<string, string | number>;
  figures: Figure[];
}

export function writeReport(file: string, report: BenchReport): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}
