/**
 * WordPress post-name handling: sanitize_title() on save (remove_accents + sanitize_title_with_dashes),
 * the lookup sanitisation of get_page_by_path() (§2.4) and wp_unique_post_slug()'s `-2`, `-3`… suffixes.
 */

import { stripTags } from './text.js';

// remove_accents() table of WordPress (default locale). Only these letters are transliterated;
// anything else non-ASCII is kept and later percent-encoded, exactly as WordPress does.
const SINGLE_FROM =
  'ªºÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖÙÚÛÜÝßàáâãäåçèéêëìíîïðñòóôõöøùúûüýÿØ' +
  'ĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİıĴĵĶķĸĹĺĻļĽľĿŀŁłŃńŅņŇňŉŊŋŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŧŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſ' +
  'ƏǝȘșȚț€ƠơƯư' +
  'ẦầẰằỀềỒồỜờỪừỲỳ' +
  'ẢảẨẩẲẳẺẻỂểỈỉỎỏỔổỞởỦủỬửỶỷ' +
  'ẪẫẴẵẼẽỄễỖỗỠỡỮữỸỹ' +
  'ẤấẮắẾếỐốỚớỨứ' +
  'ẠạẬậẶặẸẹỆệỊịỌọỘộỢợỤụỰựỴỵ' +
  'ɑǕǖǗǘǍǎǏǐǑǒǓǔǙǚǛǜ';
const SINGLE_TO =
  'aoAAAAAACEEEEIIIIDNOOOOOUUUUYsaaaaaaceeeeiiiidnoooooouuuuyyO' +
  'AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiJjKkkLlLlLlLlLlNnNnNnnNnOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs' +
  'EeSsTtEOoUu' +
  'AaAaEeOoOoUuYy' +
  'AaAaAaEeEeIiOoOoOoUuUuYy' +
  'AaAaEeEeOoOoUuYy' +
  'AaAaEeOoOoUu' +
  'AaAaAaEeEeIiOoOoOoUuUuYy' +
  'aUuUuAaIiOoUuUuUu';

const ACCENTS = new Map<string, string>([
  ['Æ', 'AE'],
  ['æ', 'ae'],
  ['Þ', 'TH'],
  ['þ', 'th'],
  ['Ĳ', 'IJ'],
  ['ĳ', 'ij'],
  ['Œ', 'OE'],
  ['œ', 'oe'],
  ['£', ''],
]);
{
  const from = Array.from(SINGLE_FROM);
  const to = Array.from(SINGLE_TO);
  if (from.length !== to.length) throw new Error('remove_accents table is misaligned');
  from.forEach((ch, i) => ACCENTS.set(ch, to[i]));
}

/** WordPress remove_accents() (default locale): NFC-normalise, then transliterate Latin letters. */
export function removeAccents(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  let out = '';
  for (const ch of text.normalize('NFC')) out += ACCENTS.get(ch) ?? ch;
  return out;
}

/** utf8_uri_encode(): percent-encode non-ASCII as lowercase UTF-8 octets, stopping before `limit` chars. */
function utf8UriEncode(s: string, limit: number): string {
  const encoder = new TextEncoder();
  let out = '';
  for (const ch of s) {
    const piece = ch.charCodeAt(0) < 0x80 ? ch : Array.from(encoder.encode(ch), (b) => '%' + b.toString(16).padStart(2, '0')).join('');
    if (limit && out.length + piece.length > limit) break;
    out += piece;
  }
  return out;
}

// Octets handled by sanitize_title_with_dashes() in 'save' context.
const SAVE_TO_DASH = ['%c2%a0', '%e2%80%93', '%e2%80%94', '&nbsp;', '&#160;', '&ndash;', '&#8211;', '&mdash;', '&#8212;', '/'];
const SAVE_STRIP = [
  '%c2%ad',
  '%c2%a1',
  '%c2%bf',
  '%c2%ab',
  '%c2%bb',
  '%e2%80%b9',
  '%e2%80%ba',
  '%e2%80%98',
  '%e2%80%99',
  '%e2%80%9c',
  '%e2%80%9d',
  '%e2%80%9a',
  '%e2%80%9b',
  '%e2%80%9e',
  '%e2%80%9f',
  '%e2%80%a2',
  '%c2%a9',
  '%c2%ae',
  '%c2%b0',
  '%e2%80%a6',
  '%e2%84%a2',
  '%c2%b4',
  '%cb%8a',
  '%cc%81',
  '%cd%81',
  '%cc%80',
  '%cc%84',
  '%cc%8c',
  '%e2%80%8b',
  '%e2%80%8c',
  '%e2%80%8d',
  '%e2%80%8e',
  '%e2%80%8f',
  '%e2%80%aa',
  '%e2%80%ab',
  '%e2%80%ac',
  '%e2%80%ad',
  '%e2%80%ae',
  '%ef%bb%bf',
];
const SAVE_WIDE_SPACES = [
  '%e2%80%80',
  '%e2%80%81',
  '%e2%80%82',
  '%e2%80%83',
  '%e2%80%84',
  '%e2%80%85',
  '%e2%80%86',
  '%e2%80%87',
  '%e2%80%88',
  '%e2%80%89',
  '%e2%80%8a',
  '%e2%80%a8',
  '%e2%80%a9',
  '%e2%80%af',
];

function replaceAll(s: string, needles: string[], by: string): string {
  for (const n of needles) s = s.split(n).join(by);
  return s;
}

/** sanitize_title_with_dashes(). `save` context additionally folds dashes/spaces and drops quotes etc. */
export function sanitizeTitleWithDashes(title: string, context: 'save' | 'query' | 'display' = 'display'): string {
  let t = stripTags(title);
  // Keep escaped octets, drop other percent signs.
  t = t
    .replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '---$1---')
    .replace(/%/g, '')
    .replace(/---([a-fA-F0-9][a-fA-F0-9])---/g, '%$1');
  // seems_utf8() always holds for JS strings: mb_strtolower per character (no final-sigma rule), then
  // percent-encode, which also caps the slug at 200 characters.
  t = utf8UriEncode(Array.from(t, (c) => c.toLowerCase()).join(''), 200).toLowerCase();
  if (context === 'save') {
    t = replaceAll(t, SAVE_TO_DASH, '-');
    t = replaceAll(t, SAVE_STRIP, '');
    t = replaceAll(t, SAVE_WIDE_SPACES, '-');
    t = t.split('%c3%97').join('x');
  }
  return t
    .replace(/&.+?;/g, '') // kill entities
    .replace(/\./g, '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The slug WordPress stores for a title or a client-supplied slug (sanitize_title, 'save' context).
 * May return '' (e.g. only punctuation); WordPress then falls back to the post id.
 */
export function sanitizeSlug(text: string): string {
  return sanitizeTitleWithDashes(removeAccents(String(text ?? '')), 'save');
}

/** PHP rawurlencode(): like encodeURIComponent but also encodes ! ' ( ) *. */
function rawUrlEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * How get_page_by_path() sanitises a `/by-slug/{slug}` value before comparing it with stored post names:
 * urldecode → rawurlencode → sanitize_title 'query' context (no accent removal). So `Jazz.Night` looks up
 * `jazz-night`, and `café` looks up `caf%c3%a9` (which is not what `Café` was saved as).
 */
export function slugForLookup(raw: string): string {
  const encoded = rawUrlEncode(safeDecode(String(raw ?? '')))
    .replace(/%2F/g, '/')
    .replace(/%20/g, ' ');
  const parts = encoded.replace(/^\/+|\/+$/g, '').split('/');
  // Posts of a flat type only match a single path segment; keep the last one like WP keys on it.
  return sanitizeTitleWithDashes(parts[parts.length - 1] ?? '', 'query');
}

const MAX_SLUG_LENGTH = 200;

/** _truncate_post_slug(): shorten to `length` chars without splitting a %xx octet, then drop trailing dashes. */
function truncateSlug(slug: string, length: number): string {
  if (slug.length <= length) return slug;
  let cut = slug.slice(0, length);
  const partial = cut.match(/%[0-9a-f]?$/i);
  if (partial) cut = cut.slice(0, cut.length - partial[0].length);
  return cut.replace(/-+$/, '');
}

/** Slugs WordPress refuses for flat post types because they collide with rewrite endpoints. */
export const RESERVED_SLUGS: readonly string[] = ['feed', 'rdf', 'rss', 'rss2', 'atom', 'embed'];

/** Candidates in WordPress order: `base`, `base-2`, `base-3`, … (at most `n` when given). */
export function* uniqueSlugCandidates(base: string, n = Infinity): Generator<string> {
  if (n <= 0) return;
  yield base;
  for (let suffix = 2; suffix <= n; suffix++) {
    yield `${truncateSlug(base, MAX_SLUG_LENGTH - (String(suffix).length + 1))}-${suffix}`;
  }
}

/** Candidates looked up at once by firstFreeSlug: more are needed only for a name used that often. */
const CANDIDATES_PER_LOOKUP = 20;

/** The candidates firstFreeSlug asks about first (a write may read them with another statement). */
export const firstSlugCandidates = (base: string): string[] => [...uniqueSlugCandidates(base, CANDIDATES_PER_LOOKUP)];

/**
 * nextUniqueSlug, asking `takenAmong` which of the next candidates are taken, a batch at a time:
 * a lookup of exact slugs, which the unique index answers, where a prefix match (`base-%`) read
 * every row (SQLite's LIKE is Almanac's own function, which no index serves).
 */
export async function firstFreeSlug(base: string, takenAmong: (candidates: string[]) => Promise<Set<string>>): Promise<string> {
  const taken = new Map<string, boolean>();
  let asked = 0;
  return nextUniqueSlug(base, async (candidate) => {
    if (!taken.has(candidate)) {
      const batch = [...uniqueSlugCandidates(base, asked + CANDIDATES_PER_LOOKUP)].slice(asked);
      asked += CANDIDATES_PER_LOOKUP;
      const found = await takenAmong(batch);
      for (const slug of batch) taken.set(slug, found.has(slug));
    }
    return taken.get(candidate) === true;
  });
}

/** wp_unique_post_slug(): the first candidate not `taken` (and not reserved). */
export async function nextUniqueSlug(base: string, taken: (candidate: string) => boolean | Promise<boolean>): Promise<string> {
  for (const candidate of uniqueSlugCandidates(base)) {
    if (candidate === base && RESERVED_SLUGS.includes(base)) continue;
    if (!(await taken(candidate))) return candidate;
  }
  throw new Error('unreachable: the candidate sequence is infinite');
}
