type Cell = string | number | boolean | null | undefined;

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with control characters written out (`\n`, `\u001b`): a name someone else typed
 * (a monitor's, through the API) cannot break a row in two or send escape codes to the terminal.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** How a table is laid out: a width to fit (the widest columns are cut with "…" until it does) and a left margin. */
export interface TableLayout {
  width?: number;
  indent?: string;
}

/** No column is cut narrower than this (or its heading). */
const MIN_CUT_WIDTH = 8;

/** `text` cut to `width` characters, with "…" where it was cut. */
export function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** Prints rows as a plain aligned table with upper-case headings; empty cells show "-"; control characters are written out. */
export function printTable<Row extends Record<string, Cell>>(rows: Row[], columns: (keyof Row & string)[], layout: TableLayout = {}): void {
  const text = (cell: Cell) => (cell === null || cell === undefined || cell === '' ? '-' : printable(String(cell)));
  const headings = columns.map((c) => c.toUpperCase().replace(/_/g, ' '));
  const grid = [headings, ...rows.map((row) => columns.map((c) => text(row[c])))];
  const widths = columns.map((_, i) => Math.max(...grid.map((line) => line[i].length)));
  const indent = layout.indent ?? '';
  if (layout.width !== undefined) {
    // The widest column gives a character at a time, so a long command is cut before a schedule is.
    const floor = headings.map((h) => Math.max(h.length, MIN_CUT_WIDTH));
    const total = () => indent.length + widths.reduce((sum, w) => sum + w, 0) + 2 * (columns.length - 1);
    while (total() > layout.width) {
      let widest = -1;
      widths.forEach((w, i) => {
        if (w > floor[i] && (widest < 0 || w > widths[widest])) widest = i;
      });
      if (widest < 0) break;
      widths[widest]--;
    }
  }
  for (const line of grid) {
    console.log(indent + line.map((cell, i) => (i === line.length - 1 ? cut(cell, widths[i]) : cut(cell, widths[i]).padEnd(widths[i]))).join('  ').trimEnd());
  }
}

/** `text` in lines of at most `width` characters, broken at spaces (a word longer than a line is cut), each after `indent`. */
export function wrapped(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (indent.length + next.length <= width || line === '') line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => indent + cut(l, width - indent.length));
}
