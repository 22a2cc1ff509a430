// Categories and tags given to an event write (spec §6.6, TEC translate_terms_to_ids): ids of
// existing terms, or slugs/names — a name that matches nothing creates the term.
import { retryOnConflict, type Db } from './posts.js';
import { nextUniqueSlug, sanitizeSlug } from './slugs.js';

function items(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' || typeof raw === 'number' ? String(raw).split(',') : [];
  return list.map((item) => String(item ?? '').trim()).filter(Boolean);
}

export async function resolveEventTerms(tx: Db, taxonomy: string, raw: unknown): Promise<number[]> {
  const ids: number[] = [];
  for (const item of items(raw)) {
    let id: number | undefined;
    if (/^\d+$/.test(item)) {
      id = (await tx.term.findFirst({ where: { id: Number(item), taxonomy }, select: { id: true } }))?.id;
    } else {
      const found = await tx.term.findFirst({ where: { taxonomy, OR: [{ slug: sanitizeSlug(item) }, { name: item }] }, select: { id: true } });
      id = found?.id ?? (await createTermNamed(tx, taxonomy, item));
    }
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

async function createTermNamed(tx: Db, taxonomy: string, name: string): Promise<number> {
  return retryOnConflict(async () => {
    const base = sanitizeSlug(name) || 'term';
    const taken = new Set(
      (await tx.term.findMany({ where: { taxonomy, OR: [{ slug: base }, { slug: { startsWith: `${base}-` } }] }, select: { slug: true } })).map((t) => t.slug),
    );
    const slug = await nextUniqueSlug(base, (candidate) => taken.has(candidate));
    return (await tx.term.create({ data: { taxonomy, name, slug }, select: { id: true } })).id;
  });
}
