/**
 * The UTF-8 of a JSON array built in parts: items whose JSON is already encoded (`add`), and runs
 * of items serialised here together (`addRun`). After the parts in order, `bytes()` is exactly the
 * UTF-8 of JSON.stringify of all their items as one array (the brackets, a comma between two
 * items). GET /api/monitors keeps each unchanged monitor's bytes from one listing to the next
 * (agent/api/present/monitorJsonMemo.ts) and serialises the changed ones a run at a time: one
 * JSON.stringify of many objects costs half as much as one per object.
 */
export class JsonArrayBytes {
  /** Each part: an item's bytes, or a run's JSON.stringify (brackets included). */
  private readonly parts: Array<Buffer | string> = [];
  /** Each part's bytes without a run's two brackets. */
  private readonly lengths: number[] = [];

  /** One item's JSON as UTF-8 (of an object, a string, a number…: never of undefined, which JSON.stringify leaves out). */
  add(item: Buffer): void {
    this.parts.push(item);
    this.lengths.push(item.length);
  }

  /** Items to serialise, in order (none undefined). */
  addRun(items: readonly unknown[]): void {
    if (items.length === 0) return;
    const json = JSON.stringify(items);
    this.parts.push(json);
    this.lengths.push(Buffer.byteLength(json) - 2);
  }

  bytes(): Buffer {
    const count = this.parts.length;
    const bytes = Buffer.allocUnsafe(this.lengths.reduce((sum, length) => sum + length, 0) + Math.max(count - 1, 0) + 2);
    let at = 0;
    bytes[at++] = 0x5b; // '['
    for (let i = 0; i < count; i++) {
      if (i > 0) bytes[at++] = 0x2c; // ','
      const part = this.parts[i]!;
      if (typeof part === 'string') {
        // A run's text is written whole, its '[' over the byte before (put back) and its ']' where the next byte goes:
        // slicing the brackets off first cost a copy of the text (a tenth of a list whose every row changed).
        const before = bytes[at - 1]!;
        bytes.write(part, at - 1);
        bytes[at - 1] = before;
      } else {
        part.copy(bytes, at);
      }
      at += this.lengths[i]!;
    }
    bytes[at] = 0x5d; // ']'
    return bytes;
  }
}
