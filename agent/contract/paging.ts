import { z } from 'zod';
import { pageNumber } from './fields';

export const pageQuery = z.object({
  page: pageNumber('page', 100_000_000),
  per_page: pageNumber('per_page', 100),
});
export type PageQuery = z.infer<typeof pageQuery>;
