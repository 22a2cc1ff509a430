// Venues and organizers ("linked posts"): validation and creation shared by their own mutations and
// by events that create them inline (spec §2.6, §6.5). Creation reuses an existing record of the same
// name (and description, when one is sent) instead of making a duplicate, as the original does.
import type { UrlPolicy } from '../net/url-policy.js';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { DateTime } from 'luxon';
import { canPostUnfilteredHtml, storedStatus } from './capabilities.js';
import { postHtmlAsSaved } from './kses.js';
import { isWallTime, formatWall, utcToWall, wallToUtc } from './dates/wall-times.js';
import { isValidDateInput, parseDateInput, parseNatural } from './dates/strtotime.js';
import { toZone } from './dates/zones.js';
import { applyImagePlan, planImage, type ImagePlan } from './images.js';
import { allocatePostId, insertedDates, linkedTable, uniquePostSlug, wallNow, type Db, type LinkedType } from './posts.js';
import { sanitizeSlug } from './slugs.js';
import { sanitizeTextField } from './text.js';
import { isNonBlankString, isRegisteredStatus, isStringOrNumber, isUrlOrEmpty, Problems, userExists } from './validate.js';

export const META_FIELDS: Record<LinkedType, readonly string[]> = {
  venue: ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website'],
  organizer: ['phone', 'website', 'email'],
};

/** A venue's or organizer's writable fields, by their GraphQL names. */
export interface LinkedFields {
  name?: string;
  author?: number | string;
  date?: string;
  dateUtc?: string;
  description?: string;
  excerpt?: string;
  status?: string;
  image?: unknown;
  showMap?: unknown;
  showMapLink?: unknown;
  slug?: string;
  [meta: string]: unknown;
}

/** Reads an inline object as sent to the events API (`{venue: "Hall", show_map: "1", …}`). */
export function linkedFieldsFromObject(type: LinkedType, object: Record<string, unknown>): LinkedFields {
  const fields: LinkedFields = {};
  const name = object[type] ?? object.name;
  if (name !== undefined) fields.name = name as string;
  const aliases: Record<string, string> = { date_utc: 'dateUtc', show_map: 'showMap', show_map_link: 'showMapLink' };
  for (const [key, value] of Object.entries(object)) {
    if (key === type || key === 'name' || key === 'id') continue;
    fields[aliases[key] ?? key] = value;
  }
  return fields;
}

export interface LinkedPlan {
  fields: LinkedFields;
  image: ImagePlan;
}

/** Validates fields for create (name required) or update; records reasons on `problems` under `prefix`. */
export async function validateLinkedFields(
  db: Db,
  type: LinkedType,
  fields: LinkedFields,
  options: { create: boolean; viewer: Viewer | null; policy: UrlPolicy; problems: Problems; nameKey?: string },
): Promise<LinkedPlan> {
  const { problems } = options;
  const nameKey = options.nameKey ?? 'name';
  if (options.create || fields.name !== undefined) problems.check(nameKey, isNonBlankString(fields.name));
  if (fields.author !== undefined) problems.check('author', await userExists(db, fields.author));
  if (fields.date !== undefined) problems.check('date', isValidDateInput(fields.date));
  if (fields.dateUtc !== undefined) problems.check('dateUtc', isValidDateInput(fields.dateUtc));
  if (fields.description !== undefined) problems.check('description', isStringOrNumber(fields.description));
  if (fields.status !== undefined) problems.check('status', isRegisteredStatus(fields.status));
  for (const key of META_FIELDS[type]) {
    if (fields[key] === undefined) continue;
    problems.check(key, key === 'website' ? isUrlOrEmpty(fields[key]) : isStringOrNumber(fields[key]) || fields[key] === null);
  }
  let image: ImagePlan = { kind: 'none' };
  if (fields.image !== undefined) {
    const plan = await planImage(db, fields.image, options.viewer, options.policy);
    if (plan) image = plan;
    else problems.fail('image');
  }
  return { fields, image };
}

/** "truthy → true, otherwise false" for show_map flags (TEC reads them as strings). */
export function mapFlag(raw: unknown): boolean {
  return raw === true || raw === 1 || (typeof raw === 'string' && /^(1|true|yes|on|y|enable|enabled)$/i.test(raw));
}

/** Derived `stateprovince` when none is given: the state in the US (or no country), else the province. */
export function deriveStateProvince(values: { state?: string; province?: string; country?: string }): string {
  const country = (values.country ?? '').trim();
  if (values.state && (!country || country === 'US' || country === 'United States')) return values.state;
  return values.province || '';
}

/**
 * Publication dates of a post as the original stores them: `date` as its wall time reads where it
 * was written (an offset in it kept, as PHP's DateTime formats it; relative dates in the site's zone),
 * `dateUtc` moved to UTC, each as given when both are; one alone gives the other through the site's
 * zone (wp_insert_post); neither is now. A date outside the years a wall time holds
 * ("0000-00-00 00:00:00", which WordPress also reads as "now") counts as not given.
 */
export function publicationDates(fields: { date?: unknown; dateUtc?: unknown }, siteTimezone: string, now = new Date()) {
  const wall = (raw: unknown, read: (raw: unknown) => DateTime | null) => {
    if (raw === undefined || raw === '') return undefined;
    const parsed = read(raw);
    const text = parsed && formatWall(parsed);
    return text && isWallTime(text) ? text : undefined;
  };
  const local = wall(fields.date, (raw) => parseNatural(raw, toZone(siteTimezone, 'UTC'), now));
  const utc = wall(fields.dateUtc, (raw) => parseDateInput(raw, 'UTC', now));
  const dateUtc = utc ?? (local && wallToUtc(local, siteTimezone));
  const date = local ?? (utc && utcToWall(utc, siteTimezone));
  if (date && dateUtc && isWallTime(date) && isWallTime(dateUtc)) return { date, dateUtc };
  const current = wallNow(siteTimezone, now);
  return { date: current.local, dateUtc: current.utc };
}

/** A venue's or organizer's text field as TEC's save_meta stores it (sanitize_text_field); null is "". */
export const metaValue = (value: unknown): string => (value == null ? '' : sanitizeTextField(String(value)));

function metaValues(type: LinkedType, fields: LinkedFields): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const key of META_FIELDS[type]) if (fields[key] !== undefined) meta[key] = metaValue(fields[key]);
  return meta;
}

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * Creates a venue/organizer, or reuses a non-trashed one with the same name (and description when
 * one is given), overwriting its meta with the values supplied. Runs inside the caller's transaction.
 */
export async function createOrReuseLinked(
  tx: Db,
  type: LinkedType,
  plan: LinkedPlan,
  context: { viewer: Viewer | null; config: Config },
): Promise<{ id: number; created: boolean }> {
  const fields = postHtmlAsSaved(plan.fields, 'name', canPostUnfilteredHtml(context.viewer));
  const name = String(fields.name).trim();
  const meta = metaValues(type, fields);
  const model = linkedTable(tx, type);
  const candidates = await model.findMany<{ id: number; title: string; content: string }>({
    where: { status: { not: 'trash' } },
    select: { id: true, title: true, content: true },
    orderBy: { id: 'asc' },
  });
  const duplicate = candidates.find(
    (c) => sameText(c.title, name) && (fields.description === undefined || sameText(c.content, String(fields.description ?? ''))),
  );
  if (duplicate) {
    if (Object.keys(meta).length) await model.update({ where: { id: duplicate.id }, data: meta });
    return { id: duplicate.id, created: false };
  }
  const id = await allocatePostId(tx, type);
  const instant = new Date(); // one instant for both, so a second boundary cannot make it `future`
  const dates = publicationDates(fields, context.config.siteTimezone, instant);
  const now = wallNow(context.config.siteTimezone, instant);
  const stored = storedStatus(fields.status, context.viewer, dates.dateUtc, now.utc);
  const data: Record<string, unknown> = {
    id,
    title: name,
    slug: await uniquePostSlug(tx, type, sanitizeSlug(String(fields.slug ?? name)) || String(id)),
    status: stored,
    authorId: fields.author !== undefined ? Number(fields.author) : (context.viewer?.userId ?? 0),
    ...insertedDates(dates, stored, fields.date !== undefined || fields.dateUtc !== undefined),
    content: fields.description == null ? '' : String(fields.description),
    excerpt: fields.excerpt == null ? '' : String(fields.excerpt),
    imageId: await applyImagePlan(tx, plan.image),
    ...meta,
  };
  if (type === 'venue') {
    data.showMap = fields.showMap === undefined ? true : mapFlag(fields.showMap);
    data.showMapLink = fields.showMapLink === undefined ? true : mapFlag(fields.showMapLink);
    if (!meta.stateprovince) data.stateprovince = deriveStateProvince(meta);
  }
  await model.create({ data });
  return { id, created: true };
}
