// Small validators shared by the calendar's write paths. Each returns true when the value is valid.
import { isDbId, type Db } from './posts.js';
import { isPostStatus } from './capabilities.js';

export const INVALID = 'Invalid parameter.';

/** Given at all: GraphQL's null and an absent argument both mean "not given". */
export const isGiven = (v: unknown): boolean => v !== null && v !== undefined;
/** TEC's is_string for GraphQL input: any non-empty string (" " passes; WordPress trims later). */
export const isNonEmptyText = (v: unknown): v is string => typeof v === 'string' && v !== '';
export const isNonBlankString = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';
/** A positive whole number (page, per page). */
export const isPositiveInteger = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
export const isStringOrNumber = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number';
export const isRegisteredStatus = (v: unknown): boolean => isPostStatus(v);

/** WordPress/TEC `is_url`: an absolute URL with a scheme and a host. */
export function isUrl(value: unknown): boolean {
  if (typeof value !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+[^\s]*$/i.test(value.trim())) return false;
  try {
    new URL(value.trim());
    return true;
  } catch {
    return false;
  }
}

export const isUrlOrEmpty = (v: unknown): boolean => v === '' || v === null || isUrl(v);

export async function userExists(db: Db, raw: unknown): Promise<boolean> {
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!isDbId(id)) return false;
  return (await db.user.count({ where: { id } })) > 0;
}

/** Collects per-field reasons in check order; `fail` marks a field invalid once. */
export class Problems {
  readonly params: Record<string, string> = {};
  readonly details: Record<string, unknown> = {};
  fail(name: string, reason = INVALID): void {
    if (!(name in this.params)) this.params[name] = reason;
  }
  check(name: string, ok: boolean): void {
    if (!ok) this.fail(name);
  }
  get any(): boolean {
    return Object.keys(this.params).length > 0;
  }
}
