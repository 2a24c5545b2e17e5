import { prepareSignInLink } from '../../agent/api/routes/session';
import type { Store } from '../../agent/db/store';

/** A fresh sign-in link for `companyId` on the agent at `baseUrl`, its code stored at once: the road `cronbeat serve` takes. */
export function createSignInLink(store: Store, baseUrl: string, now: number, companyId = 1): string {
  const { link, save } = prepareSignInLink(baseUrl, companyId);
  save(store, now);
  return link;
}
