/**
 * Pure rules of event categories and tags (WordPress terms), spec §2.7, §3.4, §6.6: the two
 * taxonomies, how names are sanitised on save, list-argument parsing and
 * WP_Term_Query's order/orderby, and term archive links. No database here.
 */
import { isDbId } from './posts.js';
import { sanitizeTextField } from './text.js';
import { splitList } from '../php/tribe.js';

export const CATEGORY_TAXONOMY = 'tribe_events_cat';
export const TAG_TAXONOMY = 'post_tag';
export type Taxonomy = typeof CATEGORY_TAXONOMY | typeof TAG_TAXONOMY;

/** Categories nest (parent/children); tags are flat. */
export const isHierarchical = (taxonomy: Taxonomy): boolean => taxonomy === CATEGORY_TAXONOMY;

/** A positive integer given as a number or a string of digits (an id, never a slug). */
export function asId(value: unknown): number | null {
  if (typeof value === 'number') return isDbId(value) ? value : null;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) {
    const id = Number(value.trim());
    return isDbId(id) ? id : null;
  }
  return null;
}

/**
 * The items of a term list argument (include, exclude, parent): TEC's list_to_array split of each
 * string, trimmed as term_exists trims; numbers stay ids ("12" names the id 12). Strings inside a
 * list are split too: GraphQL turns a single "2,3" into ["2,3"]. Unlike list_to_array, "0" is the
 * item 0 (which names no term), not an empty list.
 */
export function termListItems(value: unknown): Array<string | number> {
  if (value === null || value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).flatMap((item) =>
    typeof item === 'number' ? [item] : typeof item === 'string' ? splitList(item.trim()) : [],
  );
}

// Entities WordPress leaves alone when escaping (&amp; is not encoded twice).
const ENTITY = /&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/iy;

/**
 * The name WordPress stores for a term: sanitize_text_field, then kses + _wp_specialchars, so `&`,
 * `<`, `>` become entities: "Rock & Roll" is stored (and returned) as "Rock &amp; Roll".
 */
export function sanitizeTermName(raw: string): string {
  const s = sanitizeTextField(raw);
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '&') {
      ENTITY.lastIndex = i;
      out += ENTITY.test(s) ? '&' : '&amp;';
    } else out += ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch;
  }
  return out;
}

/** WP_Term_Query::parse_order: absent → ascending; "asc" in any case → ascending; anything else → descending. */
export function parseOrder(order: string | null | undefined): 'asc' | 'desc' {
  if (order === null || order === undefined) return 'asc';
  return order.toUpperCase() === 'ASC' ? 'asc' : 'desc';
}

export type TermSortKey = 'id' | 'name' | 'slug' | 'termGroup' | 'count' | 'parent' | 'description' | 'include' | 'none';

/**
 * WP_Term_Query::parse_orderby (with the REST controller's include_slugs → slug__in): known keys
 * map to columns, `include` orders by the include list when there is one, `none` leaves the order
 * to the database; anything else (and absent) orders by name. `term_order` only means something
 * for an object's terms, where every term has the same order.
 */
export function parseOrderby(orderby: string | null | undefined, context: { hasInclude: boolean; forEvent: boolean }): TermSortKey {
  if (orderby === null || orderby === undefined) return 'name';
  const key = orderby.toLowerCase();
  switch (key) {
    case 'term_id':
    case 'id':
    case '':
    case 'term_taxonomy_id':
      return 'id';
    case 'name':
    case 'slug':
    case 'count':
    case 'parent':
    case 'description':
    case 'none':
      return key;
    case 'term_group':
      return 'termGroup';
    case 'taxonomy':
      return 'none'; // one taxonomy per list: every row ties
    case 'term_order':
      return context.forEvent ? 'none' : 'id';
    case 'include':
      return context.hasInclude ? 'include' : 'name';
    default:
      return 'name';
  }
}

/** What a sort needs to know of one term. */
export interface SortableTerm {
  id: number;
  name?: string;
  slug?: string;
  description?: string;
  termGroup?: number;
  parentId?: number | null;
}

// MySQL's *_ci collations: case- and accent-insensitive text order (the same on SQLite and PostgreSQL).
const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** A comparator for `key`/`direction`; ties (and `none`) fall back to ascending ids. */
export function termComparator(
  key: TermSortKey,
  direction: 'asc' | 'desc',
  extra: { counts?: Map<number, number>; include?: number[] } = {},
): (a: SortableTerm, b: SortableTerm) => number {
  const sign = direction === 'asc' ? 1 : -1;
  const position = new Map((extra.include ?? []).map((id, i) => [id, i]));
  const primary = (a: SortableTerm, b: SortableTerm): number => {
    switch (key) {
      case 'id':
        return a.id - b.id;
      case 'name':
      case 'slug':
      case 'description':
        return collator.compare(a[key] ?? '', b[key] ?? '');
      case 'termGroup':
        return (a.termGroup ?? 0) - (b.termGroup ?? 0);
      case 'parent':
        return (a.parentId ?? 0) - (b.parentId ?? 0);
      case 'count':
        return (extra.counts?.get(a.id) ?? 0) - (extra.counts?.get(b.id) ?? 0);
      case 'include':
        return (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0);
      default:
        return 0;
    }
  };
  return (a, b) => sign * primary(a, b) || a.id - b.id;
}

/**
 * The term archive link (§3.4.2 `url`): categories nest their ancestors' slugs under
 * /events/category/, tags live under /tag/.
 */
export function termUrl(siteUrl: string, taxonomy: Taxonomy, slugPath: string[]): string {
  const base = taxonomy === CATEGORY_TAXONOMY ? 'events/category' : 'tag';
  return `${siteUrl}/${base}/${slugPath.join('/')}/`;
}

/** Slugs from the root down to `id`, following parent links (a broken or looping chain just stops). */
export function slugPath(
  tree: Map<number, { slug: string; parentId: number | null }>,
  term: { slug: string; parentId: number | null },
): string[] {
  const path = [term.slug];
  const seen = new Set<number>();
  for (let parent = term.parentId; parent && !seen.has(parent);) {
    seen.add(parent);
    const node = tree.get(parent);
    if (!node) break;
    path.unshift(node.slug);
    parent = node.parentId;
  }
  return path;
}
