// Answers of read routes, kept in memory and served again while nothing they depend on changed.
// A key names everything an answer is a function of: the data version (moved by every committed
// write, from any process), the current second (lists, windows and JSON-LD are "now"-relative and
// computed per second), the caller, and the request line. So an entry is never stale; it is only
// dropped for room (least recently used first, bounded in entries and bytes).
import { createHash } from 'node:crypto';

export interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  allow?: string;
  /** Encoded once: a kept answer is sent as it is. */
  body: Buffer;
  etag: string;
}

/** A strong ETag of a response body. */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether an If-None-Match header names `etag` (a list, or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Sends a 200's body with its ETag, or a 304 when the request's If-None-Match names it. */
export function sendConditionally(
  ctx: { get(name: string): string; set(name: string, value: string): void; status: number; body: unknown },
  body: Buffer,
  etag: string,
): void {
  ctx.set('ETag', etag);
  if (matchesEtag(ctx.get('If-None-Match') || undefined, etag)) {
    ctx.status = 304;
    ctx.body = null;
  } else {
    ctx.body = body;
  }
}

export class ResponseCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 2_000,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  static key(parts: { version: number | string; viewer: number | null; url: string; now?: number }): string {
    const second = Math.floor((parts.now ?? Date.now()) / 1000);
    return `${parts.version}|${second}|${parts.viewer ?? 'anonymous'}|${parts.url}`;
  }

  get(key: string): CachedAnswer | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, answer: CachedAnswer): void {
    const size = answer.body.length + key.length;
    if (size > this.maxBytes / 8) return; // one answer never crowds out the rest
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, answer);
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.remove(oldest, entry);
    }
  }

  private remove(key: string, entry: CachedAnswer): void {
    this.entries.delete(key);
    this.bytes -= entry.body.length + key.length;
  }
}
