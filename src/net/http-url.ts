// The shape every URL a caller gives Almanac to call back or visit must have (task start and webhook
// URLs, a key's default webhook): absolute http(s), at most 2048 characters. Whether the address may
// be reached is the URL policy's question (url-policy.ts), asked when it is used.

export const MAX_URL_LENGTH = 2048;

/** The URL normalized, or the rule it breaks, phrased to follow the field's name. */
export function checkHttpUrl(value: unknown): { href: string } | { rule: string } {
  if (typeof value !== 'string') return { rule: 'must be a string' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { rule: 'must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { rule: 'must be an absolute http or https URL' };
  if (value.length > MAX_URL_LENGTH) return { rule: `must be at most ${MAX_URL_LENGTH} characters` };
  return { href: url.href };
}
