import { describe, it, expect } from 'vitest';
import { nextUniqueSlug, removeAccents, sanitizeSlug, slugForLookup, uniqueSlugCandidates } from '../../src/calendar/slugs.js';

describe('sanitizeSlug', () => {
  it('matches the samples', () => {
    expect(sanitizeSlug('Jazz Night')).toBe('jazz-night');
    expect(sanitizeSlug('Main Hall')).toBe('main-hall');
    expect(sanitizeSlug('Jazz Night (updated)')).toBe('jazz-night-updated');
    expect(sanitizeSlug('Event 01')).toBe('event-01');
  });
  it('turns dots into dashes and removes other punctuation', () => {
    expect(sanitizeSlug('v1.2 release!')).toBe('v1-2-release');
    expect(sanitizeSlug("Rock 'n' Roll & Blues?")).toBe('rock-n-roll-blues');
    expect(sanitizeSlug('100% fun')).toBe('100-fun');
    expect(sanitizeSlug('snake_case stays')).toBe('snake_case-stays');
  });
  it('collapses and trims dashes and whitespace', () => {
    expect(sanitizeSlug('  --a   --  b--  ')).toBe('a-b');
    expect(sanitizeSlug('a\tb\nc')).toBe('abc');
    expect(sanitizeSlug('a/b')).toBe('a-b');
  });
  it('removes accents from Latin letters', () => {
    expect(sanitizeSlug('Café Crème')).toBe('cafe-creme');
    expect(sanitizeSlug('Ærøskøbing Straße')).toBe('aeroskobing-strase');
    expect(sanitizeSlug('Łódź')).toBe('lodz');
    expect(sanitizeSlug('Cafe\u0301')).toBe('cafe'); // decomposed input is NFC-normalised first
  });
  it('percent-encodes other scripts in lowercase UTF-8', () => {
    expect(sanitizeSlug('日本')).toBe('%e6%97%a5%e6%9c%ac');
    expect(sanitizeSlug('Привет мир')).toBe('%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82-%d0%bc%d0%b8%d1%80');
  });
  it('folds typographic characters in save context', () => {
    expect(sanitizeSlug('a\u2013b\u2014c')).toBe('a-b-c');
    expect(sanitizeSlug('\u201cQuoted\u201d \u2026 \u00a9')).toBe('quoted');
    expect(sanitizeSlug('a&nbsp;b &amp; c')).toBe('a-b-c');
    expect(sanitizeSlug('3\u00d74')).toBe('3x4');
  });
  it('strips tags and keeps escaped octets', () => {
    expect(sanitizeSlug('<b>Bold</b> move')).toBe('bold-move');
    expect(sanitizeSlug('caf%C3%A9')).toBe('caf%c3%a9');
  });
  it('returns empty for punctuation-only input and caps length at 200', () => {
    expect(sanitizeSlug('!!!')).toBe('');
    expect(sanitizeSlug('a'.repeat(250))).toHaveLength(200);
  });
});

describe('removeAccents', () => {
  it('uses the WordPress table', () => {
    expect(removeAccents('ßŉĸ€£Ơ')).toBe('snkEO');
    expect(removeAccents('plain')).toBe('plain');
    expect(removeAccents('й')).toBe('й'); // Cyrillic is not transliterated
  });
});

describe('slugForLookup', () => {
  it('sanitises like get_page_by_path', () => {
    expect(slugForLookup('jazz-night')).toBe('jazz-night');
    expect(slugForLookup('Jazz-Night')).toBe('jazz-night');
    expect(slugForLookup('event.with.dots')).toBe('event-with-dots');
    expect(slugForLookup("it's")).toBe('it%27s');
  });
  it('matches stored percent-encoded slugs whether or not the path was decoded', () => {
    expect(slugForLookup('日本')).toBe(sanitizeSlug('日本'));
    expect(slugForLookup('%E6%97%A5%E6%9C%AC')).toBe(sanitizeSlug('日本'));
  });
  it('does not remove accents (query context)', () => {
    expect(slugForLookup('café')).toBe('caf%c3%a9');
  });
  it('handles spaces and malformed escapes', () => {
    expect(slugForLookup('no such event')).toBe('no-such-event');
    expect(slugForLookup('100%')).toBe('100%25');
  });
});

describe('uniqueSlugCandidates', () => {
  it('yields base, base-2, base-3…', () => {
    expect([...uniqueSlugCandidates('party', 4)]).toEqual(['party', 'party-2', 'party-3', 'party-4']);
    expect([...uniqueSlugCandidates('party', 0)]).toEqual([]);
  });
  it('truncates long bases to keep 200 characters', () => {
    const [, second] = uniqueSlugCandidates('a'.repeat(200), 2);
    expect(second).toBe('a'.repeat(198) + '-2');
  });
  it('never splits an octet when truncating', () => {
    const base = 'a'.repeat(196) + '%e6%97';
    const [, second] = uniqueSlugCandidates(base, 2);
    expect(second).toBe('a'.repeat(196) + '-2');
  });
});

describe('nextUniqueSlug', () => {
  it('returns the base when free', async () => {
    expect(await nextUniqueSlug('jazz-night', () => false)).toBe('jazz-night');
  });
  it('appends the first free numeric suffix', async () => {
    const taken = new Set(['jazz-night', 'jazz-night-2']);
    expect(await nextUniqueSlug('jazz-night', (s) => taken.has(s))).toBe('jazz-night-3');
  });
  it('accepts an async predicate', async () => {
    const taken = new Set(['a']);
    expect(await nextUniqueSlug('a', async (s) => taken.has(s))).toBe('a-2');
  });
  it('avoids reserved feed slugs', async () => {
    expect(await nextUniqueSlug('feed', () => false)).toBe('feed-2');
  });
});
