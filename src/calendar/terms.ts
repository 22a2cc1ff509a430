// Event categories and tags (spec §2.7, §5.2, §6.6, §6.9): single reads, create/update/delete with
// WordPress's rules (wp_insert_term, wp_update_term, wp_delete_term), and the translation of an
// event's `categories`/`tags` into term ids. Order of checks, as the REST contract needs:
// validation → permission → handler errors (NOT_HIERARCHICAL, TERM_EXISTS) → write.
// Every write is one transaction; the unique (taxonomy, slug) index plus retryOnConflict keep
// concurrent writers from taking the same slug.
import { randomUUID } from 'node:crypto';
import type { Viewer } from '../auth/viewer.js';
import type { Prisma } from '../db/client.js';
import { CalendarError, invalidInput } from './errors.js';
import { canManageCategories, canManageTags } from './capabilities.js';
import { isDbId, retryOnConflict } from './posts.js';
import { sanitizeSlug, uniqueSlugCandidates } from './slugs.js';
import { caseInsensitiveIn, lockTermWrites, publishedEventCounts, resolveTermRef, type TermDb } from './term-lookup.js';
import { asId, CATEGORY_TAXONOMY, isHierarchical, TAG_TAXONOMY, sanitizeTermName, type Taxonomy } from './term-rules.js';
import { phpStrtolower } from '../php/strings.js';
import { ksesData } from './kses.js';
import { INVALID, isGiven, isNonEmptyText, Problems } from './validate.js';

export { CATEGORY_TAXONOMY, TAG_TAXONOMY, type Taxonomy } from './term-rules.js';
export { listTerms, type TermListFilter, type TermPage, type TermPageInput } from './term-list.js';
export {
  addPublishedToTermCounts,
  categoryTree,
  publishedEventCounts,
  refreshTermCounts,
  termIdsOf,
  type CategoryTree,
  type TermDb,
} from './term-lookup.js';

/** What a write needs: the database and who is calling (the GraphQL context fits). */
export interface TermWriteContext {
  prisma: Prisma;
  viewer: Viewer | null;
}

/** Fields of a create or update, as given; null or absent = not given. */
export interface TermInput {
  name?: string | null;
  description?: string | null;
  slug?: string | null;
  /** Parent category: id, slug or name. On tags any value is NOT_HIERARCHICAL. */
  parent?: unknown;
}

const levelOf = (parentId: number | null | undefined) => parentId || null;

function denied(viewer: Viewer | null): CalendarError {
  return new CalendarError(viewer ? 'FORBIDDEN' : 'UNAUTHENTICATED', 'Sorry, you are not allowed to do that.');
}

/** Categories: author and up; tags: editor and up (§0.5). */
export function canManageTerms(viewer: Viewer | null, taxonomy: Taxonomy): boolean {
  return taxonomy === CATEGORY_TAXONOMY ? canManageCategories(viewer) : canManageTags(viewer);
}

function assertCanManage(viewer: Viewer | null, taxonomy: Taxonomy): void {
  if (!canManageTerms(viewer, taxonomy)) throw denied(viewer);
}

function notHierarchical(): CalendarError {
  return new CalendarError('NOT_HIERARCHICAL', 'Cannot set parent term, taxonomy is not hierarchical.');
}

function termExists(taxonomy: Taxonomy, termId: number): CalendarError {
  const where = isHierarchical(taxonomy) ? 'with this parent' : 'in this taxonomy';
  return new CalendarError('TERM_EXISTS', `A term with the name provided already exists ${where}.`, { termId });
}

/** The id of an existing term of `taxonomy`, or null (ids of the other taxonomy do not count). */
async function existingId(db: TermDb, taxonomy: Taxonomy, raw: unknown): Promise<number | null> {
  const id = asId(raw);
  if (id === null) return null;
  return (await db.term.count({ where: { id, taxonomy } })) > 0 ? id : null;
}

/**
 * A term for a single read: by id, else by slug (as given, then sanitised). Unknown, or a term of
 * the other taxonomy → INVALID_INPUT on the argument used (REST: 400 rest_invalid_param).
 */
export async function findTermId(db: TermDb, taxonomy: Taxonomy, ref: { id?: unknown; slug?: unknown }): Promise<number> {
  if (isGiven(ref.id) || !isGiven(ref.slug)) {
    const id = await existingId(db, taxonomy, ref.id);
    if (id === null) throw invalidInput({ id: INVALID });
    return id;
  }
  const slug = String(ref.slug);
  const rows = await db.term.findMany({ where: { taxonomy, slug: { in: [slug, sanitizeSlug(slug)] } }, select: { id: true, slug: true } });
  const match = rows.find((row) => row.slug === slug) ?? rows[0];
  if (!match) throw invalidInput({ slug: INVALID });
  return match.id;
}

export const MAX_TERM_NAME = 200;

/** Validates the create/update fields (and the parent of a category), in the REST declaration order. */
async function validateFields(db: TermDb, taxonomy: Taxonomy, input: TermInput, problems: Problems, create: boolean) {
  let parentId: number | undefined;
  if (create || isGiven(input.name)) {
    // WordPress stores names in a 200-character column: a longer one is refused, not cut or failed on.
    problems.check(
      'name',
      isNonEmptyText(input.name) && sanitizeTermName(input.name) !== '' && sanitizeTermName(input.name).length <= MAX_TERM_NAME,
    );
  }
  if (isGiven(input.description)) problems.check('description', isNonEmptyText(input.description));
  if (isGiven(input.slug)) problems.check('slug', isNonEmptyText(input.slug));
  if (isHierarchical(taxonomy) && isGiven(input.parent)) {
    const id = await resolveTermRef(db, taxonomy, input.parent);
    if (id === null) problems.fail('parent');
    else parentId = id;
  }
  return { parentId };
}

/** Taken slugs among `base`, `base-2`, … (all taxonomies, as WordPress checks its shared terms table). */
async function takenSlugs(tx: TermDb, base: string, exceptId?: number): Promise<Set<string>> {
  const rows = await tx.term.findMany({
    where: { OR: [{ slug: base }, { slug: { startsWith: `${base}-` } }], ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { slug: true },
  });
  return new Set(rows.map((row) => row.slug));
}

/**
 * wp_unique_term_slug: a slug free in the taxonomy stays; otherwise a category first takes its
 * ancestors' slugs as suffixes (`jazz-music`), then `-2`, `-3`… until no term anywhere has it.
 */
async function uniqueTermSlug(tx: TermDb, taxonomy: Taxonomy, slug: string, parentId: number | null, exceptId?: number): Promise<string> {
  const clash = await tx.term.findFirst({
    where: { taxonomy, slug, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (!clash) return slug;
  let base = slug;
  if (isHierarchical(taxonomy) && parentId) {
    let suffix = '';
    for (let parent: number | null = parentId; parent;) {
      const node: { slug: string; parentId: number | null } | null = await tx.term.findUnique({
        where: { id: parent },
        select: { slug: true, parentId: true },
      });
      if (!node) break;
      suffix += `-${node.slug}`;
      if (!(await tx.term.count({ where: { slug: slug + suffix } }))) break;
      parent = node.parentId;
    }
    base = slug + suffix;
  }
  const taken = await takenSlugs(tx, base, exceptId);
  for (const candidate of uniqueSlugCandidates(base)) if (!taken.has(candidate)) return candidate;
  throw new Error('unreachable: the candidate sequence is infinite');
}

interface NewTerm {
  name: string; // sanitised
  slug?: string; // as given
  description?: string;
  parentId?: number;
}

/**
 * wp_insert_term inside a transaction: a name already used at the same level (any ASCII case) is
 * TERM_EXISTS unless a new, free slug is given; a given slug that is taken is made unique.
 * Holds the taxonomy's write lock from the name check to the commit.
 */
async function insertTerm(tx: TermDb, taxonomy: Taxonomy, term: NewTerm): Promise<number> {
  await lockTermWrites(tx, taxonomy);
  const level = levelOf(term.parentId);
  const givenSlug = term.slug ? sanitizeSlug(term.slug) : '';
  const slugProvided = givenSlug !== '';
  const slug = slugProvided ? givenSlug : sanitizeSlug(term.name);
  const sameLevel = (
    await tx.term.findMany({
      where: { taxonomy, parentId: level, ...caseInsensitiveIn(tx, 'name', [term.name]) },
      select: { id: true, name: true, slug: true, parentId: true },
      orderBy: { id: 'asc' },
    })
  ).filter((t) => phpStrtolower(t.name) === phpStrtolower(term.name));
  const nameMatch = sameLevel[0];
  if (nameMatch) {
    const slugMatch = slug ? await tx.term.findFirst({ where: { taxonomy, slug }, select: { id: true, parentId: true } }) : null;
    if (!slugProvided || nameMatch.slug === slug || slugMatch) {
      if (!isHierarchical(taxonomy)) throw termExists(taxonomy, nameMatch.id);
      // Categories: the same name (exactly) among siblings, or the slug taken by a sibling.
      if ((!slugProvided || nameMatch.slug === slug) && sameLevel.some((t) => t.name === term.name))
        throw termExists(taxonomy, nameMatch.id);
      if (slugMatch && levelOf(slugMatch.parentId) === level) throw termExists(taxonomy, slugMatch.id);
    }
  }
  // A name with nothing sluggable gets its id as slug (sanitize_title's fallback), set once known.
  const idAsSlug = slug === '';
  const created = await tx.term.create({
    data: {
      taxonomy,
      name: term.name,
      slug: idAsSlug ? `pending-${randomUUID()}` : await uniqueTermSlug(tx, taxonomy, slug, level),
      description: term.description ?? '',
      parentId: level,
    },
    select: { id: true },
  });
  if (idAsSlug) {
    await tx.term.update({
      where: { id: created.id },
      data: { slug: await uniqueTermSlug(tx, taxonomy, String(created.id), level, created.id) },
    });
  }
  return created.id;
}

/**
 * The term `id` as `query` (a Prisma select/include) loads it, for the answer of a read or a write.
 * Terms are deleted for good: one that a concurrent delete took after it was found is INVALID_INPUT
 * on `id`, as an unknown id is (it was a 500; found by the hostile suite, hostile/fuzz.test.ts).
 */
export async function termForAnswer(db: Prisma, query: object, id: number) {
  const term = await db.term.findUnique({ ...query, where: { id } } as Parameters<Prisma['term']['findUnique']>[0]);
  if (!term) throw invalidInput({ id: INVALID });
  return term;
}

/** Creates a category or tag and returns its id. */
export async function createTerm(ctx: TermWriteContext, taxonomy: Taxonomy, input: TermInput): Promise<number> {
  const problems = new Problems();
  const { parentId } = await validateFields(ctx.prisma, taxonomy, input, problems, true);
  if (problems.any) throw invalidInput(problems.params);
  assertCanManage(ctx.viewer, taxonomy);
  if (!isHierarchical(taxonomy) && isGiven(input.parent)) throw notHierarchical();
  const term: NewTerm = {
    name: sanitizeTermName(input.name as string),
    slug: input.slug ?? undefined,
    // pre_term_description: wp_filter_kses for every role.
    description: isGiven(input.description) ? ksesData(input.description as string) : undefined,
    parentId,
  };
  return retryOnConflict(() => ctx.prisma.$transaction((tx) => insertTerm(tx, taxonomy, term)));
}

/**
 * wp_check_term_hierarchy_for_loops: a category cannot be its own ancestor; a parent that would
 * make a loop puts the category at the top level instead.
 */
async function safeParent(tx: TermDb, id: number, parentId: number): Promise<number | null> {
  const seen = new Set<number>();
  for (let node: number | null = parentId; node;) {
    if (node === id) return null;
    if (seen.has(node)) break;
    seen.add(node);
    node = (await tx.term.findUnique({ where: { id: node }, select: { parentId: true } }))?.parentId ?? null;
  }
  return parentId;
}

/**
 * Updates the given fields only (wp_update_term) and returns the id. A slug taken by another term
 * is CONFLICT unless the slug came out empty or the parent changed (then it is made unique).
 */
export async function updateTerm(ctx: TermWriteContext, taxonomy: Taxonomy, rawId: unknown, input: TermInput): Promise<number> {
  const problems = new Problems();
  const id = await existingId(ctx.prisma, taxonomy, rawId);
  if (id === null) problems.fail('id');
  const { parentId } = await validateFields(ctx.prisma, taxonomy, input, problems, false);
  if (problems.any || id === null) throw invalidInput(problems.params);
  assertCanManage(ctx.viewer, taxonomy);
  if (!isHierarchical(taxonomy) && isGiven(input.parent)) throw notHierarchical();
  return retryOnConflict(() =>
    ctx.prisma.$transaction(async (tx) => {
      const current = await tx.term.findUnique({ where: { id } });
      if (!current) throw invalidInput({ id: INVALID }); // deleted meanwhile
      const name = isGiven(input.name) ? sanitizeTermName(input.name as string) : current.name;
      const parent = parentId !== undefined ? await safeParent(tx, id, parentId) : current.parentId;
      const requested = isGiven(input.slug) ? sanitizeSlug(input.slug as string) : current.slug;
      const emptySlug = requested === '';
      let slug = emptySlug ? sanitizeSlug(name) || String(id) : requested;
      const duplicate = await tx.term.findFirst({ where: { taxonomy, slug, NOT: { id } }, select: { id: true } });
      if (duplicate) {
        if (!emptySlug && levelOf(parent) === levelOf(current.parentId)) {
          throw new CalendarError('CONFLICT', `The slug “${slug}” is already in use by another term.`, { termId: duplicate.id });
        }
        slug = await uniqueTermSlug(tx, taxonomy, slug, levelOf(parent), id);
      }
      // updateMany: a delete that commits after the read above leaves nothing to update (no P2025 error).
      const { count } = await tx.term.updateMany({
        where: { id },
        data: {
          name,
          slug,
          parentId: levelOf(parent),
          ...(isGiven(input.description) ? { description: ksesData(input.description as string) } : {}),
        },
      });
      if (!count) throw invalidInput({ id: INVALID }); // deleted meanwhile
      return id;
    }),
  );
}

/**
 * Deletes a term for good (no trash) and returns it as it was, loaded with `query` (a Prisma
 * select/include) before the delete, with its count then. Child categories move up to the deleted
 * one's parent (wp_delete_term). Deleting again: the id is unknown → INVALID_INPUT on `id`.
 */
export async function deleteTerm<T = unknown>(
  ctx: TermWriteContext,
  taxonomy: Taxonomy,
  rawId: unknown,
  query: object = {},
): Promise<{ term: T; count: number }> {
  const id = await existingId(ctx.prisma, taxonomy, rawId);
  if (id === null) throw invalidInput({ id: INVALID });
  assertCanManage(ctx.viewer, taxonomy);
  // One statement at a time: a transaction is one connection.
  return ctx.prisma.$transaction(async (tx) => {
    const position = await tx.term.findUnique({ where: { id }, select: { parentId: true } });
    const term = position && (await tx.term.findUnique({ ...query, where: { id } }));
    if (!term || !position) throw invalidInput({ id: INVALID });
    const counts = await publishedEventCounts(tx, [id]);
    if (isHierarchical(taxonomy)) await tx.term.updateMany({ where: { parentId: id }, data: { parentId: position.parentId } });
    const { count: deleted } = await tx.term.deleteMany({ where: { id, taxonomy } });
    if (!deleted) throw invalidInput({ id: INVALID }); // a concurrent delete won
    return { term: term as T, count: counts.get(id) ?? 0 };
  });
}

/**
 * TEC translate_terms_to_ids (§6.6), for event create/update inside the caller's transaction.
 * `items`: an array or a comma-separated string (strings inside an array are split on commas too).
 * A number, or a string of digits, is an existing id of the taxonomy (else its slug or name, else
 * skipped); any other string is an existing term's slug or name (any case), else a new term with
 * that name is created (no permission check, as in TEC). Blanks are ignored, duplicates collapsed, order of
 * first appearance kept. Never a validation error. A unique-slug clash with a concurrent writer
 * throws, so the caller's retryOnConflict reruns its transaction.
 */
/**
 * `wpTagQuirk` reproduces the original's handling of an EXISTING tag named in an event write:
 * WordPress receives that tag's id as a string and, tags being flat, reads it as a tag name, so the
 * event gets a tag named like the id (created if needed) — sample 09 of the recorded responses.
 * Categories are unaffected (WordPress casts their ids). The REST layer asks for it; GraphQL does not.
 */
export async function resolveEventTerms(
  tx: TermDb,
  taxonomy: Taxonomy,
  items: unknown,
  options: { wpTagQuirk?: boolean; knownIds?: Map<number, string> } = {},
): Promise<number[]> {
  const list = termItems(items);
  // The ids among the items are looked up in one read (a create names its categories by id), or
  // were read already (`knownIds`: the taxonomy of each that exists).
  const numeric = termIdsNamed(list);
  const existing = options.knownIds
    ? new Set(numeric.filter((id) => options.knownIds!.get(id) === taxonomy))
    : numeric.length
      ? new Set((await tx.term.findMany({ where: { id: { in: numeric }, taxonomy }, select: { id: true } })).map((row) => row.id))
      : new Set<number>();
  const ids: number[] = [];
  for (const item of list) {
    let id: number | null;
    if (typeof item === 'number') id = existing.has(item) ? item : null;
    else {
      const found = await termForText(tx, taxonomy, item as string, existing);
      id =
        found && options.wpTagQuirk && taxonomy === TAG_TAXONOMY && !found.created && !/^\d+$/.test(item as string)
          ? await tagNamedExactly(tx, String(found.id))
          : (found?.id ?? null);
    }
    if (id !== null && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** A string item: slug, then name, then (digits only) id, else create it by name. */
/** The tag whose slug or name is exactly `name`, created when there is none. */
async function tagNamedExactly(tx: TermDb, name: string): Promise<number> {
  const found = await tx.term.findFirst({
    where: { taxonomy: TAG_TAXONOMY, OR: [{ slug: name }, { name }] },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return found ? found.id : insertTerm(tx, TAG_TAXONOMY, { name });
}

/** The items of a `categories`/`tags` argument. Strings split on commas even inside an array: GraphQL turns "a,b" into ["a,b"]. */
function termItems(items: unknown): (number | string)[] {
  return (Array.isArray(items) ? items : [items])
    .flatMap((item) => (typeof item === 'string' ? item.split(',').map((part) => part.trim()) : [item]))
    .filter((item): item is number | string => typeof item === 'number' || (typeof item === 'string' && item !== ''));
}

/** The ids that a `categories`/`tags` argument may name (numbers and strings of digits). */
export function termIdsNamed(items: unknown): number[] {
  return termItems(items)
    .map((item) => (typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item))
    .filter(isDbId);
}

async function termForText(
  tx: TermDb,
  taxonomy: Taxonomy,
  text: string,
  existingIds: Set<number>,
): Promise<{ id: number; created: boolean } | null> {
  // Digits name an id first (PHP's is_numeric in TEC's translate_terms_to_ids), whether they came
  // as a JSON number or a string: a tag the quirk below named "12" does not capture references to tag 12.
  if (/^\d+$/.test(text) && existingIds.has(Number(text))) return { id: Number(text), created: false };
  const slug = sanitizeSlug(text);
  const names = [...new Set([text, sanitizeTermName(text)])];
  const rows = await tx.term.findMany({
    where: { taxonomy, OR: [...(slug ? [{ slug }] : []), caseInsensitiveIn(tx, 'name', names)] },
    select: { id: true, slug: true, name: true },
    orderBy: { id: 'asc' },
  });
  const match =
    rows.find((row) => slug !== '' && row.slug === slug) ??
    rows.find((row) => names.some((n) => n.toLowerCase() === row.name.toLowerCase()));
  if (match) return { id: match.id, created: false };
  if (/^\d+$/.test(text)) return null; // an unknown id is skipped, never created as a name
  const name = sanitizeTermName(text);
  if (!name) return null;
  try {
    return { id: await insertTerm(tx, taxonomy, { name }), created: true };
  } catch (error) {
    // Created meanwhile by another writer (or a same-level twin the lookup missed): use that term.
    if (error instanceof CalendarError && error.code === 'TERM_EXISTS') return { id: error.details.termId as number, created: false };
    throw error;
  }
}
