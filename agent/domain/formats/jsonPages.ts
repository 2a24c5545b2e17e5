/**
 * The JSON text of one long array, serialised a page at a time: after `add` of each page in order,
 * `text()` is exactly JSON.stringify of all their items as one array. A page's items (and whatever
 * made them) can then be collected before the next page is built, where 10,000 answers alive at
 * once, copied by every young-generation collection, cost GET /api/monitors a sixth of its time.
 * (JSON.stringify hands an item's toJSON its index, here within its page: for items without a
 * toJSON that reads its key, as the API's answers are.)
 */
export class JsonArrayText {
  private readonly parts: string[] = [];

  add(items: readonly unknown[]): void {
    if (items.length > 0) this.parts.push(JSON.stringify(items).slice(1, -1));
  }

  text(): string {
    return `[${this.parts.join(',')}]`;
  }
}
