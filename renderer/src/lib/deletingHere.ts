/*
 * What this tab is deleting. The agent's live event of the deletion can come before the DELETE's
 * own answer, while the page that asked is still open: that page must not read its item again
 * (a 404, and a flash of "does not exist" on the way back to the list). Deleted from another tab,
 * the item is not here, and its open page reads it again to say it is gone (liveCache.ts).
 */

const deleting = new Set<string>();

/** Runs `remove` (the DELETE of `kind` `id`) with the item known as deleted here meanwhile, and after it succeeded. */
export async function deleteHere(kind: 'monitor' | 'server', id: number, remove: () => Promise<void>): Promise<void> {
  const key = `${kind}:${id}`;
  deleting.add(key);
  try {
    await remove();
  } catch (error) {
    deleting.delete(key);
    throw error;
  }
}

/** Whether this tab deleted (or is deleting) that item. */
export function deletedHere(kind: 'monitor' | 'server', id: number): boolean {
  return deleting.has(`${kind}:${id}`);
}
