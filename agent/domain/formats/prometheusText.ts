/*
 * The Prometheus text exposition format (version 0.0.4), written by hand: a metric family is a
 * name, its HELP and TYPE, and samples with labels. Pure; the /metrics route fills it in.
 */

export type MetricType = 'gauge' | 'counter';

export interface Sample {
  labels: Record<string, string | number>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A label value as the format wants it: backslash, double quote and newline escaped. */
export function escapeLabelValue(value: string): string {
  // Most values have nothing to escape: no new string for them.
  if (!/[\\"\n]/.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function formatLabels(labels: Record<string, string | number>): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabelValue(String(value))}"`);
  return pairs.length > 0 ? `{${pairs.join(',')}}` : '';
}

/** A family's HELP and TYPE lines, each ending in a newline. */
export function familyHeader(family: Pick<MetricFamily, 'name' | 'help' | 'type'>): string {
  return `# HELP ${family.name} ${escapeHelp(family.help)}\n# TYPE ${family.name} ${family.type}\n`;
}

/** The exposition of `families`, each with its HELP and TYPE even when it has no sample now. */
export function prometheusText(families: readonly MetricFamily[]): string {
  let text = '';
  for (const family of families) {
    text += familyHeader(family);
    for (const sample of family.samples) text += `${family.name}${formatLabels(sample.labels)} ${formatValue(sample.value)}\n`;
  }
  return text;
}
