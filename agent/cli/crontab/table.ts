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

/** Prints rows as a plain aligned table with upper-case headings; empty cells show "-"; control characters are written out. */
export function printTable<Row extends Record<string, Cell>>(rows: Row[], columns: (keyof Row & string)[]): void {
  const text = (cell: Cell) => (cell === null || cell === undefined || cell === '' ? '-' : printable(String(cell)));
  const grid = [columns.map((c) => c.toUpperCase().replace(/_/g, ' ')), ...rows.map((row) => columns.map((c) => text(row[c])))];
  const widths = columns.map((_, i) => Math.max(...grid.map((line) => line[i].length)));
  for (const line of grid) {
    console.log(line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd());
  }
}
