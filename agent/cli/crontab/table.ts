type Cell = string | number | boolean | null | undefined;

/** Prints rows as a plain aligned table with upper-case headings; empty cells show "-". */
export function printTable<Row extends Record<string, Cell>>(rows: Row[], columns: (keyof Row & string)[]): void {
  const text = (cell: Cell) => (cell === null || cell === undefined || cell === '' ? '-' : String(cell));
  const grid = [columns.map((c) => c.toUpperCase().replace(/_/g, ' ')), ...rows.map((row) => columns.map((c) => text(row[c])))];
  const widths = columns.map((_, i) => Math.max(...grid.map((line) => line[i].length)));
  for (const line of grid) {
    console.log(line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd());
  }
}
