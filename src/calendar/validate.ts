// Small validators shared by the calendar's write paths. Each returns true when the value is valid.
import { isIPv6 } from 'node:net';
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

/** The characters FILTER_SANITIZE_URL keeps: a URL holding any other is not valid. */
const URL_CHARACTERS = /^[A-Za-z0-9$\-_.+!*'(),{}|\\^~[\]`<>#%";/?:@&=]*$/;
/** A host name label (FILTER_FLAG_HOSTNAME): letters, digits and inner hyphens, 1 to 63 of them. */
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * TEC's `is_url`, PHP's filter_var(FILTER_VALIDATE_URL): only URL characters (no spaces, nothing
 * outside ASCII); a scheme; for http and https a host that is a valid host name or [IPv6]; for
 * other schemes a host too, except mailto:, news: and file:.
 */
export function isUrl(value: unknown): boolean {
  if (typeof value !== 'string' || !URL_CHARACTERS.test(value)) return false;
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(value);
  if (!match) return false;
  const scheme = match[1].toLowerCase();
  let host = '';
  if (match[2].startsWith('//')) {
    const authority = match[2].slice(2).split(/[/?#]/)[0];
    const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
    host = hostAndPort.startsWith('[') ? hostAndPort.slice(0, hostAndPort.indexOf(']') + 1) : hostAndPort.split(':')[0];
  }
  if (scheme === 'http' || scheme === 'https') {
    if (host.startsWith('[')) return host.endsWith(']') && isIPv6(host.slice(1, -1));
    const name = host.endsWith('.') ? host.slice(0, -1) : host;
    return name !== '' && name.length <= 253 && name.split('.').every((label) => HOST_LABEL.test(label));
  }
  return host !== '' || scheme === 'mailto' || scheme === 'news' || scheme === 'file';
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
