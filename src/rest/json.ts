// JSON as WordPress writes it (wp_json_encode → PHP json_encode with default flags): "/" is
// escaped as "\/" and every non-ASCII UTF-16 unit as a lowercase "\uXXXX", so bodies match the
// original byte for byte. `pretty` is PHP's JSON_PRETTY_PRINT (WP's `?_pretty`), 4-space indents.

const HEX = '0123456789abcdef';

/** PHP's escape of a non-ASCII UTF-16 unit, which JSON.stringify leaves as it is. */
function unicodeEscape(char: string): string {
  const unit = char.charCodeAt(0);
  return `\\u${HEX[unit >> 12]}${HEX[(unit >> 8) & 15]}${HEX[(unit >> 4) & 15]}${HEX[unit & 15]}`;
}

/**
 * JSON.stringify's text made PHP's: slashes by the engine's own replaceAll, non-ASCII units by a
 * regular-expression pass run only when the text has any (a native byte count tells). The result
 * is pure ASCII.
 */
function phpEscaped(json: string): string {
  const slashed = json.replaceAll('/', '\\/');
  return Buffer.byteLength(json, 'utf8') === json.length ? slashed : slashed.replace(/[\u0080-\uffff]/g, unicodeEscape);
}

const hasToJson = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';

/** Arrays and plain objects whose members are written one by one: JSON.stringify would give the same text. */
const isUnrollable = (value: unknown): value is Record<string, unknown> | unknown[] => {
  if (typeof value !== 'object' || value === null || hasToJson(value)) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * JSON.stringify's text of `value` as the member `key` of an object or array. A toJSON method is
 * called with that key, as JSON.stringify calls it, by serializing a one-member holder.
 */
function memberJson(value: unknown, key: string | number): string | undefined {
  if (!hasToJson(value)) return JSON.stringify(value) as string | undefined;
  // In an array, a toJSON answering undefined is written null, which is what the caller writes too.
  if (typeof key === 'number') return JSON.stringify([value]).slice(1, -1);
  const json = JSON.stringify({ [key]: value });
  return json === '{}' ? undefined : json.slice(JSON.stringify(key).length + 2, -1);
}

/**
 * Appends `value`'s PHP JSON to `pieces`, the top `depth` levels member by member. Returns false
 * (appending nothing) where JSON.stringify would give undefined (an undefined or function value),
 * which an object skips and an array writes as null, as JSON.stringify does.
 */
function appendPieces(value: unknown, pieces: string[], depth: number, key: string | number = ''): boolean {
  if (depth === 0 || !isUnrollable(value)) {
    const json = memberJson(value, key);
    if (json === undefined) return false;
    pieces.push(phpEscaped(json));
    return true;
  }
  if (Array.isArray(value)) {
    pieces.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) pieces.push(',');
      if (!appendPieces(value[i], pieces, depth - 1, i)) pieces.push('null');
    }
    pieces.push(']');
    return true;
  }
  pieces.push('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const start = pieces.length;
    pieces.push(`${first ? '' : ','}${phpEscaped(JSON.stringify(key))}:`);
    if (appendPieces(value[key], pieces, depth - 1, key)) first = false;
    else pieces.length = start;
  }
  pieces.push('}');
  return true;
}

/**
 * The body's bytes. A list page is serialized record by record: one JSON.stringify of the whole
 * 185 kB page builds a rope that V8 must flatten into a fresh large-object string before any
 * native code reads it, which cost ~0.9 ms of the page's ~2.3 ms; records' texts are small and
 * flat. The escaped pieces are ASCII, so latin1 writes them as bytes without a UTF-8 pass
 * (micro-benchmark, 50-event page: 2.3 → 0.8 ms).
 */
export function encodePhpJsonBytes(value: unknown, pretty = false): Buffer {
  if (value === undefined) value = null;
  if (pretty) return Buffer.from(phpEscaped(JSON.stringify(value, null, 4) ?? 'null'), 'latin1');
  const pieces: string[] = [];
  if (!appendPieces(value, pieces, 2)) pieces.push('null');
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at, 'latin1');
  return bytes;
}

/** The same text as a string (ASCII only, so latin1 reads it back unchanged). */
export const encodePhpJson = (value: unknown, pretty = false): string => encodePhpJsonBytes(value, pretty).toString('latin1');
