// The package ships no types; prom2json's shape, as its README shows.
declare module 'parse-prometheus-text-format' {
  interface ParsedFamily {
    name: string;
    help: string;
    type: 'GAUGE' | 'COUNTER' | 'SUMMARY' | 'HISTOGRAM' | 'UNTYPED';
    metrics: Array<{ labels?: Record<string, string>; value: string }>;
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
