// The `venue` and `organizer` arguments of event writes (spec §6.5): ids, `{id}` objects, or data
// objects that create (or reuse) a venue/organizer. Validation first; creation inside the write.
import type { UrlPolicy } from '../net/url-policy.js';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import { CalendarError } from './errors.js';
import { createOrReuseLinked, linkedFieldsFromObject, validateLinkedFields, type LinkedPlan } from './linked.js';
import { existingIdsOfType, type Db, type LinkedType } from './posts.js';
import { Problems } from './validate.js';
import { isPlainObject } from '../values.js';

type Entry = { kind: 'id'; id: number } | { kind: 'create'; plan: LinkedPlan };
/** none: nothing given (or an explicit empty value); entries: what to link; fail: valid but not creatable. */
export type LinkPlan = { kind: 'empty' } | { kind: 'entries'; entries: Entry[] } | { kind: 'uncreatable' };

const isNumericId = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) ||
  (typeof v === 'string' && /^\d+$/.test(v.trim()) && Number.isSafeInteger(Number(v)));

function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === 0 || v === '0' || v === false) return true;
  if (Array.isArray(v)) return v.every(isEmptyValue);
  if (isPlainObject(v)) return Object.keys(v).length === 0;
  return false;
}

/** Validates one entry; records a problem under `name` when invalid. */
async function planEntry(
  db: Db,
  type: LinkedType,
  raw: unknown,
  viewer: Viewer | null,
  policy: UrlPolicy,
  ids: Set<number>,
): Promise<Entry | null> {
  if (isNumericId(raw)) return ids.has(Number(raw)) ? { kind: 'id', id: Number(raw) } : null;
  if (!isPlainObject(raw)) return null;
  if (raw.id !== undefined && raw.id !== null && raw.id !== '') {
    return isNumericId(raw.id) && ids.has(Number(raw.id)) ? { kind: 'id', id: Number(raw.id) } : null;
  }
  const problems = new Problems();
  const plan = await validateLinkedFields(db, type, linkedFieldsFromObject(type, raw), { create: true, viewer, policy, problems });
  return problems.any ? null : { kind: 'create', plan };
}

function idsIn(raw: unknown): number[] {
  const found: number[] = [];
  const visit = (v: unknown) => {
    if (isNumericId(v)) found.push(Number(v));
    else if (typeof v === 'string') v.split(',').forEach((s) => isNumericId(s) && found.push(Number(s)));
    else if (Array.isArray(v)) v.forEach(visit);
    else if (isPlainObject(v) && isNumericId(v.id)) found.push(Number(v.id));
  };
  visit(raw);
  return found;
}

/**
 * Validates a `venue`/`organizer` argument. Returns null when invalid. A CSV of several venue ids, a
 * list of venues, a bare organizer object or a CSV of organizer ids pass validation but cannot be
 * linked — the original answers those with could-not-create-* at write time.
 */
export async function planLinks(
  db: Db,
  type: LinkedType,
  raw: unknown,
  viewer: Viewer | null,
  policy: UrlPolicy,
): Promise<LinkPlan | null> {
  if (isEmptyValue(raw)) return { kind: 'empty' };
  const ids = await existingIdsOfType(db, idsIn(raw), type);
  if (typeof raw === 'string' && raw.includes(',')) {
    const items = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!items.every((s) => isNumericId(s) && ids.has(Number(s)))) return null;
    return items.length === 1 ? { kind: 'entries', entries: [{ kind: 'id', id: Number(items[0]) }] } : { kind: 'uncreatable' };
  }
  if (isNumericId(raw) || typeof raw === 'string' || typeof raw === 'number') {
    const entry = await planEntry(db, type, raw, viewer, policy, ids);
    return entry ? { kind: 'entries', entries: [entry] } : null;
  }
  const list = Array.isArray(raw) ? raw.filter((v) => !isEmptyValue(v)) : [raw];
  const entries: Entry[] = [];
  for (const item of list) {
    const entry = await planEntry(db, type, item, viewer, policy, ids);
    if (!entry) return null;
    entries.push(entry);
  }
  // TEC's venue insert takes an id or one venue's fields: a list (of ids or of entries, however
  // short) passes validation, then fails to create a venue from it.
  if (type === 'venue' && Array.isArray(raw) && entries.length > 0) return { kind: 'uncreatable' };
  if (type === 'organizer' && !Array.isArray(raw)) return { kind: 'uncreatable' };
  return { kind: 'entries', entries };
}

/** Resolves a plan to linked ids, creating (or reusing) records as needed. Inside the write's transaction. */
export async function applyLinks(
  tx: Db,
  type: LinkedType,
  plan: LinkPlan,
  context: { viewer: Viewer | null; config: Config },
): Promise<number[]> {
  if (plan.kind === 'empty') return [];
  if (plan.kind === 'uncreatable') {
    throw type === 'venue'
      ? new CalendarError('COULD_NOT_CREATE_VENUE', 'The venue could not be created from the provided data')
      : new CalendarError('COULD_NOT_CREATE_ORGANIZER', 'The organizer could not be created from the provided data');
  }
  const ids: number[] = [];
  for (const entry of plan.entries) {
    const id = entry.kind === 'id' ? entry.id : (await createOrReuseLinked(tx, type, entry.plan, context)).id;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
