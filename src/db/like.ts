// LIKE patterns with one meaning on both engines. PostgreSQL's LIKE takes "\" as its escape
// character unless told otherwise; SQLite's has none, and Prisma never adds an ESCAPE clause. So on
// SQLite the connection's two-argument like() is replaced by likeWithBackslashEscape (SQLite lets
// an application define like(); LIKE … ESCAPE still runs the built-in three-argument one), and a
// `contains: escapeLike(text)` then finds `text` itself on both engines, % _ and \ included.

/** `text` as a LIKE pattern fragment matching exactly itself (WordPress's esc_like). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

const patterns = new Map<string, RegExp>();
const PATTERNS_KEPT = 1000;

/**
 * SQLite's LIKE as PostgreSQL's: `%` any run, `_` one character, `\` takes the next character as
 * itself; ASCII letters match either case and other characters only themselves, as in SQLite's
 * built-in LIKE (the raw reads' LIKE … ESCAPE '\' must answer the same rows).
 */
export function likeWithBackslashEscape(pattern: unknown, value: unknown): number | null {
  if (pattern == null || value == null) return null;
  const source = String(pattern);
  let regexp = patterns.get(source);
  if (!regexp) {
    let body = '';
    const chars = [...source];
    for (let i = 0; i < chars.length; i++) {
      const char = chars[i];
      if (char === '%') body += '[^]*';
      else if (char === '_') body += '.';
      else {
        const literal = char === '\\' && i + 1 < chars.length ? chars[++i] : char;
        body += /[a-z]/i.test(literal)
          ? `[${literal.toLowerCase()}${literal.toUpperCase()}]`
          : literal.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
      }
    }
    regexp = new RegExp(`^${body}$`, 'su');
    if (patterns.size >= PATTERNS_KEPT) patterns.delete(patterns.keys().next().value!);
    patterns.set(source, regexp);
  }
  return regexp.test(String(value)) ? 1 : 0;
}

/**
 * A Prisma condition: `field` holds `text` itself, ignoring case (SQLite's LIKE folds ASCII only;
 * PostgreSQL needs ILIKE, mode "insensitive").
 */
export function containsText(field: string, text: string, dbKind: string): Record<string, object> {
  const contains = escapeLike(text);
  return { [field]: dbKind === 'postgresql' ? { contains, mode: 'insensitive' } : { contains } };
}
