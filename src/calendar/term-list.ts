// The category and tag lists (spec §2.7 GET /categories, /tags): argument validation with a reason
// per argument, then WP_Term_Query's filters, order and paging. The filters that SQL expresses run
// in SQL; order runs here on (id, sort key) pairs so that text sorts the same on SQLite and
// PostgreSQL (MySQL's case-insensitive collation, as the original), and the category rule of
// hide_empty (an empty parent of a non-empty child stays) needs the tree anyway. A list costs at
// most five statements whatever its length.
import { invalidInput } from './errors.js';
import { pageSize } from './paging.js';
import { sanitizeSlug } from './slugs.js';
import { caseInsensitiveContains, categoryTree, isEventId, resolveTermRefs, type TermDb } from './term-lookup.js';
import {
  isHierarchical,
  parseOrder,
  parseOrderby,
  termComparator,
  termListItems,
  type SortableTerm,
  type Taxonomy,
  type TermSortKey,
} from './term-rules.js';
import { isGiven, isNonEmptyText, isPositiveInteger, Problems } from './validate.js';

/** The list arguments, as given (null or absent = not given). Names are the GraphQL ones. */
export interface TermListFilter {
  search?: string | null;
  include?: unknown;
  exclude?: unknown;
  order?: string | null;
  orderby?: string | null;
  hideEmpty?: boolean | null;
  /** Categories only (ignored for tags, where the argument does not exist). */
  parent?: unknown;
  /** Tags only (WP_REST_Terms_Controller has it for taxonomies without hierarchy): where the page starts. */
  offset?: number | null;
  post?: unknown;
  event?: unknown;
  slug?: string | null;
}

export interface TermPageInput {
  page?: number | null;
  perPage?: number | null;
}

interface ListPlan {
  search?: string;
  include?: number[];
  exclude?: number[];
  direction: 'asc' | 'desc';
  sortKey: TermSortKey;
  hideEmpty: boolean;
  parentId?: number;
  eventId?: number;
  slug?: string;
  page: number;
  /** Where the page starts instead of (page - 1) × perPage (tags' offset). */
  offset?: number;
  perPage: number;
}

/** Every item of a list argument must be an existing term (TEC is_term_of_taxonomy); [] is invalid too. */
async function termList(db: TermDb, taxonomy: Taxonomy, raw: unknown): Promise<number[] | null> {
  const items = termListItems(raw);
  if (!items.length) return null;
  const ids = await resolveTermRefs(db, taxonomy, items);
  return ids.every((id) => id !== null) ? (ids as number[]) : null;
}

/**
 * Validates every given argument in the REST route's declaration order and collects a reason per
 * invalid one (INVALID_INPUT with params keyed by argument name), like WordPress does before it
 * runs anything else.
 */
async function plan(
  db: TermDb,
  taxonomy: Taxonomy,
  filter: TermListFilter,
  pageInput: TermPageInput,
  defaultPerPage: number,
): Promise<ListPlan> {
  const problems = new Problems();
  const out: Partial<ListPlan> = {};
  if (isGiven(pageInput.page)) problems.check('page', isPositiveInteger(pageInput.page));
  if (isGiven(pageInput.perPage)) problems.check('perPage', isPositiveInteger(pageInput.perPage));
  if (isGiven(filter.search)) problems.check('search', isNonEmptyText(filter.search));
  // include and exclude resolve in parallel: each is one or two statements.
  const [exclude, include] = await Promise.all([
    isGiven(filter.exclude) ? termList(db, taxonomy, filter.exclude) : undefined,
    isGiven(filter.include) ? termList(db, taxonomy, filter.include) : undefined,
  ]);
  if (exclude === null) problems.fail('exclude');
  if (include === null) problems.fail('include');
  if (isGiven(filter.order)) problems.check('order', isNonEmptyText(filter.order));
  if (isGiven(filter.orderby)) problems.check('orderby', isNonEmptyText(filter.orderby));
  if (isHierarchical(taxonomy) && isGiven(filter.parent)) {
    const parents = await termList(db, taxonomy, filter.parent);
    if (parents) out.parentId = parents[0];
    else problems.fail('parent');
  }
  const [post, event] = await Promise.all([
    isGiven(filter.post) ? isEventId(db, filter.post) : undefined,
    isGiven(filter.event) ? isEventId(db, filter.event) : undefined,
  ]);
  if (post === null) problems.fail('post');
  if (event === null) problems.fail('event');
  if (isGiven(filter.slug)) problems.check('slug', isNonEmptyText(filter.slug));
  if (!isHierarchical(taxonomy) && isGiven(filter.offset)) problems.check('offset', filter.offset! >= 0);
  if (problems.any) throw invalidInput(problems.params);

  const eventId = event ?? post ?? undefined; // `event` is the alias that wins
  return {
    search: filter.search ?? undefined,
    // WP_Term_Query ignores exclude when include is given.
    include: include ?? undefined,
    exclude: include ? undefined : (exclude ?? undefined),
    direction: parseOrder(filter.order),
    sortKey: parseOrderby(filter.orderby, { hasInclude: !!include, forEvent: eventId !== undefined }),
    hideEmpty: filter.hideEmpty ?? true,
    parentId: out.parentId,
    eventId,
    slug: filter.slug ?? undefined,
    page: pageInput.page ?? 1,
    offset: !isHierarchical(taxonomy) && filter.offset ? filter.offset : undefined,
    perPage: pageSize(pageInput.perPage, defaultPerPage),
  };
}

const NON_EMPTY = { count: { gt: 0 } };

function sqlWhere(db: TermDb, taxonomy: Taxonomy, p: ListPlan): Record<string, unknown> {
  const where: Record<string, unknown> = { taxonomy };
  if (p.search) where.OR = [caseInsensitiveContains(db, 'name', p.search), caseInsensitiveContains(db, 'slug', p.search)];
  if (p.include) where.id = { in: p.include };
  else if (p.exclude) where.id = { notIn: p.exclude };
  if (p.parentId !== undefined) where.parentId = p.parentId;
  if (p.slug !== undefined) where.slug = sanitizeSlug(p.slug);
  // An event's terms ignore hide_empty (WordPress drops it when querying an object's terms).
  if (p.eventId !== undefined) where.events = { some: { eventId: p.eventId } };
  else if (p.hideEmpty && !isHierarchical(taxonomy)) Object.assign(where, NON_EMPTY);
  return where;
}

/** hide_empty for categories: keep non-empty terms and their ancestors. Returns [kept, non-empty]. */
async function nonEmptyCategories(db: TermDb, taxonomy: Taxonomy): Promise<[Set<number>, Set<number>]> {
  const [tree, filled] = await Promise.all([
    categoryTree(db),
    db.term.findMany({ where: { taxonomy, ...NON_EMPTY }, select: { id: true } }),
  ]);
  const nonEmpty = new Set(filled.map((t) => t.id));
  const kept = new Set(nonEmpty);
  for (const id of nonEmpty) {
    for (let parent = tree.get(id)?.parentId; parent && !kept.has(parent); parent = tree.get(parent)?.parentId) kept.add(parent);
  }
  return [kept, nonEmpty];
}

async function countsInTaxonomy(db: TermDb, taxonomy: Taxonomy): Promise<Map<number, number>> {
  const rows = await db.term.findMany({ where: { taxonomy }, select: { id: true, count: true } });
  return new Map(rows.map((row) => [row.id, row.count]));
}

export interface TermPage<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
}

/**
 * One page of categories or tags. `query` is spread into the final findMany (a Prisma
 * select/include, e.g. the GraphQL selection) so nested data loads with the page.
 * `total` is WordPress's: for categories with hideEmpty it counts only non-empty terms, even
 * though the items also keep empty parents of non-empty children.
 */
export async function listTerms<T = unknown>(
  db: TermDb,
  taxonomy: Taxonomy,
  filter: TermListFilter,
  pageInput: TermPageInput,
  options: { defaultPerPage: number; query?: object },
): Promise<TermPage<T>> {
  const p = await plan(db, taxonomy, filter, pageInput, options.defaultPerPage);
  const hierarchicalHide = p.hideEmpty && p.eventId === undefined && isHierarchical(taxonomy);
  const [rows, hidden, counts] = await Promise.all([
    db.term.findMany({
      where: sqlWhere(db, taxonomy, p),
      select: { id: true, name: true, slug: true, parentId: true, termGroup: true, description: p.sortKey === 'description' },
    }),
    hierarchicalHide ? nonEmptyCategories(db, taxonomy) : undefined,
    p.sortKey === 'count' ? countsInTaxonomy(db, taxonomy) : undefined,
  ]);
  const needle = p.search?.toLowerCase();
  let terms: SortableTerm[] = rows.filter(
    // SQL LIKE treats % and _ as wildcards: keep only real substring matches.
    (t) => !needle || t.name.toLowerCase().includes(needle) || t.slug.toLowerCase().includes(needle),
  );
  let total = terms.length;
  if (hidden) {
    const [kept, nonEmpty] = hidden;
    terms = terms.filter((t) => kept.has(t.id));
    total = terms.filter((t) => nonEmpty.has(t.id)).length;
  }
  terms.sort(termComparator(p.sortKey, p.sortKey === 'none' ? 'asc' : p.direction, { counts, include: p.include }));
  const start = p.offset ?? (p.page - 1) * p.perPage;
  const pageIds = terms.slice(start, start + p.perPage).map((t) => t.id);
  const loaded = pageIds.length ? await db.term.findMany({ ...(options.query ?? {}), where: { id: { in: pageIds } } }) : [];
  const byId = new Map((loaded as Array<{ id: number }>).map((row) => [row.id, row]));
  const items = pageIds.map((id) => byId.get(id)).filter((row) => row !== undefined) as T[];
  return { items, total, page: p.page, perPage: p.perPage };
}
