import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';

export interface Resource<T> {
  data: T | undefined;
  error: Error | undefined;
  /** True only for the first load; live refreshes keep showing the old data. */
  loading: boolean;
  reload: () => void;
}

/**
 * A screen's view of one cache entry (lib/queries.ts): its data, the error of its last load (shown
 * as a banner while older data stays on screen) and a reload. The live stream refreshes it.
 */
export function useResource<T, K extends QueryKey>(options: UseQueryOptions<T, Error, T, K>): Resource<T> {
  const query = useQuery(options);
  return {
    data: query.data,
    error: query.error ?? undefined,
    loading: query.isPending,
    reload: () => void query.refetch(),
  };
}
