// Checks of plain values that every layer makes (request bodies, GraphQL input, Prisma filters).

/** The text, cut to at most `max` characters with "…" as the last one when it is longer. */
export const ellipsize = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
