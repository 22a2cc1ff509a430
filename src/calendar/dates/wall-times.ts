/**
 * Wall times: "YYYY-MM-DD HH:MM:SS" strings as stored and served, their parts, and conversion
 * between a zone's local wall time and UTC with DST gaps and overlaps resolved as PHP resolves
 * them. The `Wall` record and its mktime-style normalisation are shared with strtotime and the
 * schedule module.
 *
 * Pure domain code: no HTTP, no GraphQL, no storage.
 */
import { DateTime, type Zone } from 'luxon';
import { toZone, UTC } from './zones.js';

export type WallTime = string; // "YYYY-MM-DD HH:MM:SS"

const WALL_FORMAT = 'yyyy-MM-dd HH:mm:ss';
const WALL_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export interface Wall {
  y: number;
  m: number;
  d: number;
  h: number;
  i: number;
  s: number;
}

/** The wall time read as if it were UTC, in epoch milliseconds. Out-of-range fields overflow. */
export function wallAsUtcMillis(w: Wall): number {
  const t = new Date(0);
  // setUTCFullYear avoids Date.UTC's mapping of years 0–99 to 1900–1999.
  t.setUTCFullYear(w.y, w.m - 1, w.d);
  t.setUTCHours(w.h, w.i, w.s, 0);
  return t.getTime();
}

/** Normalises out-of-range fields the way PHP's mktime does (Feb 30 → Mar 2, 24:00 → next day). */
export function normalizeWall(w: Wall): Wall {
  return wallOfUtcMillis(wallAsUtcMillis(w));
}

/** The wall time whose wallAsUtcMillis is `ms`. */
export function wallOfUtcMillis(ms: number): Wall {
  const t = new Date(ms);
  return {
    y: t.getUTCFullYear(),
    m: t.getUTCMonth() + 1,
    d: t.getUTCDate(),
    h: t.getUTCHours(),
    i: t.getUTCMinutes(),
    s: t.getUTCSeconds(),
  };
}

/**
 * The instant of a wall time in a zone, resolved like PHP: a time inside a DST gap moves forward
 * by the gap (02:30 → 03:30 CDT); an ambiguous time takes the first occurrence (01:30 CDT, not
 * CST). Luxon alone picks the second occurrence, hence this helper.
 */
function wallToMillis(w: Wall, zone: Zone): number {
  const local = wallAsUtcMillis(w);
  if (zone.isUniversal) return local - zone.offset(local) * 60_000;
  const before = zone.offset(local - 86_400_000);
  const after = zone.offset(local + 86_400_000);
  const valid = [before, after].map((o) => local - o * 60_000).filter((ts) => zone.offset(ts) * 60_000 === local - ts);
  if (valid.length > 0) return Math.min(...valid);
  return local - before * 60_000;
}

export function wallToDateTime(w: Wall, zone: Zone): DateTime {
  return DateTime.fromMillis(wallToMillis(w, zone), { zone });
}

export function parseWall(wall: WallTime): Wall | null {
  const m = WALL_RE.exec(wall);
  if (!m) return null;
  const [y, mo, d, h, i, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return { y, m: mo, d, h, i, s };
}

export function wallString(w: Wall): WallTime {
  const p = (n: number, len = 2) => String(n).padStart(len, '0');
  return `${p(w.y, 4)}-${p(w.m)}-${p(w.d)} ${p(w.h)}:${p(w.i)}:${p(w.s)}`;
}

/**
 * A wall time that can be stored and read back: "YYYY-MM-DD HH:MM:SS" with a year from 0001 to 9999.
 * strtotime reaches further ("0000-00-00 00:00:00" is -0001-11-30), but such a value cannot be
 * written in this form, and every reader of a stored date splits it by this form.
 */
export function isWallTime(value: WallTime): boolean {
  const m = WALL_RE.exec(value);
  return m !== null && m[1] !== '0000';
}

export function formatWall(dt: DateTime): WallTime {
  return dt.toFormat(WALL_FORMAT);
}

/** {"year":"2017","month":"01","day":"05","hour":"14","minutes":"23","seconds":"36"} — zero-padded strings */
export function dateDetails(wall: WallTime): {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
} {
  const m = WALL_RE.exec(wall);
  if (!m) throw new Error(`not a wall time: ${JSON.stringify(wall)}`);
  return { year: m[1]!, month: m[2]!, day: m[3]!, hour: m[4]!, minutes: m[5]!, seconds: m[6]! };
}

/** Local wall time in a zone → UTC wall time (DST gaps/overlaps resolved like PHP). */
export function wallToUtc(wall: WallTime, zone: string): WallTime {
  const w = parseWall(wall);
  if (!w) throw new Error(`not a wall time: ${JSON.stringify(wall)}`);
  return formatWall(wallToDateTime(normalizeWall(w), toZone(zone, 'UTC')).setZone(UTC));
}

/** The same wall time `days` calendar days later (earlier when negative). */
export function addDaysToWall(wall: WallTime, days: number): WallTime {
  const w = parseWall(wall);
  if (!w) throw new Error(`not a wall time: ${JSON.stringify(wall)}`);
  return wallString(normalizeWall({ ...w, d: w.d + days }));
}

/** UTC wall time → local wall time in a zone. */
export function utcToWall(utcWall: WallTime, zone: string): WallTime {
  const w = parseWall(utcWall);
  if (!w) throw new Error(`not a wall time: ${JSON.stringify(utcWall)}`);
  return formatWall(DateTime.fromMillis(wallAsUtcMillis(w), { zone: toZone(zone, 'UTC') }));
}
