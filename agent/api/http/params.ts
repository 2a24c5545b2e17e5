import { HttpError } from './errors';

/** A path id as a positive safe integer; anything else names no resource, so 404. */
export function pathId(raw: string | undefined, what: string): number {
  const id = /^[1-9][0-9]{0,15}$/.test(raw ?? '') ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw HttpError.notFound(what);
  return id;
}
