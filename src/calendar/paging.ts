// The page size of every list, REST and GraphQL alike.

/** TEC's tribe_rest_*_max_per_page (events, venues, organizers, categories, tags): 50 each. */
export const MAX_PER_PAGE = 50;

/** A list's page size: the one asked for (at least 1), else the site's posts per page; at most MAX_PER_PAGE. */
export function pageSize(asked: number | null | undefined, postsPerPage: number): number {
  return Math.min(MAX_PER_PAGE, Math.max(1, asked ?? Math.min(MAX_PER_PAGE, postsPerPage)));
}
