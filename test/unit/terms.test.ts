import { describe, expect, it } from 'vitest';
import {
  asId,
  termListItems,
  parseOrder,
  parseOrderby,
  sanitizeTermName,
  slugPath,
  termComparator,
  termUrl,
} from '../../src/calendar/term-rules.js';

describe('asId', () => {
  it('accepts positive integers as numbers or digit strings only', () => {
    expect(asId(12)).toBe(12);
    expect(asId(' 12 ')).toBe(12);
    expect(asId(0)).toBeNull();
    expect(asId(-3)).toBeNull();
    expect(asId(1.5)).toBeNull();
    expect(asId('12abc')).toBeNull();
    expect(asId('music')).toBeNull();
    expect(asId('')).toBeNull();
    expect(asId(null)).toBeNull();
  });
});

describe('termListItems (list_to_array of each given string)', () => {
  it('splits comma lists, trims, drops blanks and turns numeric strings into numbers', () => {
    expect(termListItems('2, music ,,3')).toEqual([2, 'music', 3]);
    expect(termListItems(['4', ' jazz ', '', 5])).toEqual([4, 'jazz', 5]);
    expect(termListItems(['2,3', 'music'])).toEqual([2, 3, 'music']);
    expect(termListItems(['1e3', '+4', '0x1A'])).toEqual([1000, 4, '0x1A']); // PHP is_numeric, as TEC reads ids
    expect(termListItems('0')).toEqual([0]); // an item naming no term, so the list is invalid
    expect(termListItems('')).toEqual([]);
    expect(termListItems([])).toEqual([]);
    expect(termListItems(null)).toEqual([]);
    expect(termListItems(7)).toEqual([7]);
  });
});

describe('sanitizeTermName (sanitize_text_field + kses + specialchars)', () => {
  it('encodes &, < and > once', () => {
    expect(sanitizeTermName('Rock & Roll')).toBe('Rock &amp; Roll');
    expect(sanitizeTermName('Rock &amp; Roll')).toBe('Rock &amp; Roll');
    expect(sanitizeTermName('a < b')).toBe('a &lt; b');
    expect(sanitizeTermName('&#8217;quoted&#8217;')).toBe('&#8217;quoted&#8217;');
  });
  it('strips tags and collapses whitespace', () => {
    expect(sanitizeTermName('<b>Bold</b>  move\n\tnow ')).toBe('Bold move now');
    expect(sanitizeTermName('<script>alert(1)</script>Safe')).toBe('Safe');
    expect(sanitizeTermName('<b></b>')).toBe('');
  });
  it('drops percent-encoded octets', () => {
    expect(sanitizeTermName('caf%C3%A9 bar')).toBe('caf bar');
  });
  it('keeps other text as is', () => {
    expect(sanitizeTermName('Café Crème')).toBe('Café Crème');
    expect(sanitizeTermName('"quoted" it\'s')).toBe('"quoted" it\'s');
  });
});

describe('parseOrder (WP_Term_Query::parse_order)', () => {
  it('is ascending when absent or "asc" in any case, descending otherwise', () => {
    expect(parseOrder(undefined)).toBe('asc');
    expect(parseOrder(null)).toBe('asc');
    expect(parseOrder('asc')).toBe('asc');
    expect(parseOrder('ASC')).toBe('asc');
    expect(parseOrder('desc')).toBe('desc');
    expect(parseOrder('sideways')).toBe('desc');
  });
});

describe('parseOrderby (WP_Term_Query::parse_orderby)', () => {
  const plain = { hasInclude: false, forEvent: false };
  it('maps the known keys', () => {
    expect(parseOrderby('id', plain)).toBe('id');
    expect(parseOrderby('term_id', plain)).toBe('id');
    expect(parseOrderby('NAME', plain)).toBe('name');
    expect(parseOrderby('slug', plain)).toBe('slug');
    expect(parseOrderby('term_group', plain)).toBe('termGroup');
    expect(parseOrderby('count', plain)).toBe('count');
    expect(parseOrderby('description', plain)).toBe('description');
    expect(parseOrderby('parent', plain)).toBe('parent');
    expect(parseOrderby('none', plain)).toBe('none');
  });
  it('orders by name when absent or unknown, and include only with an include list', () => {
    expect(parseOrderby(undefined, plain)).toBe('name');
    expect(parseOrderby('bogus', plain)).toBe('name');
    expect(parseOrderby('include_slugs', plain)).toBe('name');
    expect(parseOrderby('include', plain)).toBe('name');
    expect(parseOrderby('include', { hasInclude: true, forEvent: false })).toBe('include');
  });
  it("term_order is the id order except for an event's terms", () => {
    expect(parseOrderby('term_order', plain)).toBe('id');
    expect(parseOrderby('term_order', { hasInclude: false, forEvent: true })).toBe('none');
  });
});

describe('termComparator', () => {
  const terms = [
    { id: 3, name: 'zebra', slug: 'zebra', parentId: 1, termGroup: 0, description: '' },
    { id: 1, name: 'Music', slug: 'music', parentId: null, termGroup: 0, description: 'b' },
    { id: 2, name: 'art', slug: 'art', parentId: 1, termGroup: 0, description: 'a' },
    { id: 4, name: 'Art', slug: 'art-2', parentId: null, termGroup: 0, description: '' },
  ];
  const ids = (key: Parameters<typeof termComparator>[0], dir: 'asc' | 'desc', extra = {}) =>
    [...terms].sort(termComparator(key, dir, extra)).map((t) => t.id);
  it('sorts text ignoring case, ties by id', () => {
    expect(ids('name', 'asc')).toEqual([2, 4, 1, 3]);
    expect(ids('name', 'desc')).toEqual([3, 1, 2, 4]);
  });
  it('sorts by id, parent, count and include position', () => {
    expect(ids('id', 'desc')).toEqual([4, 3, 2, 1]);
    expect(ids('parent', 'asc')).toEqual([1, 4, 2, 3]);
    expect(
      ids('count', 'desc', {
        counts: new Map([
          [3, 5],
          [2, 1],
        ]),
      }),
    ).toEqual([3, 2, 1, 4]);
    expect(ids('include', 'asc', { include: [4, 1, 3, 2] })).toEqual([4, 1, 3, 2]);
    expect(ids('none', 'asc')).toEqual([1, 2, 3, 4]);
  });
});

describe('term archive links', () => {
  const tree = new Map([
    [1, { slug: 'music', parentId: null }],
    [2, { slug: 'jazz', parentId: 1 }],
  ]);
  it('nests category slugs under /events/category/', () => {
    expect(termUrl('http://site', 'tribe_events_cat', slugPath(tree, { slug: 'bebop', parentId: 2 }))).toBe(
      'http://site/events/category/music/jazz/bebop/',
    );
    expect(termUrl('http://site', 'tribe_events_cat', slugPath(tree, { slug: 'music', parentId: null }))).toBe(
      'http://site/events/category/music/',
    );
  });
  it('puts tags under /tag/', () => {
    expect(termUrl('http://site', 'post_tag', ['outdoor'])).toBe('http://site/tag/outdoor/');
  });
  it('stops at a missing or looping parent', () => {
    const loop = new Map([
      [5, { slug: 'a', parentId: 6 }],
      [6, { slug: 'b', parentId: 5 }],
    ]);
    expect(slugPath(loop, { slug: 'c', parentId: 5 })).toEqual(['b', 'a', 'c']);
    expect(slugPath(tree, { slug: 'x', parentId: 99 })).toEqual(['x']);
  });
});
