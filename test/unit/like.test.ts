// SQLite's like() as Almanac's connection defines it answers what SQLite's built-in LIKE … ESCAPE '\'
// answers (the raw reads use the built-in, Prisma's statements the replacement), and escapeLike makes
// any text a pattern that matches exactly itself.
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { escapeLike, likeWithBackslashEscape } from '../../src/db/like.js';

describe('LIKE with "\\" escaping on SQLite', () => {
  const db = new Database(':memory:');
  afterAll(() => db.close());
  const builtIn = db.prepare<[string, string], { hit: number | null }>("SELECT ? LIKE ? ESCAPE '\\' AS hit");

  const values = [
    '',
    'a',
    'A',
    'ab',
    'a_b',
    'a%b',
    'a\\b',
    'AxB',
    '50% off',
    'é',
    'É',
    'naïve',
    'x.y*z',
    '[a-z]',
    'line\nbreak',
    '😀',
    'a😀b',
  ];
  const patterns = [
    '%',
    '_',
    '%a%',
    'A_B',
    'a\\_b',
    'a\\%b',
    'a\\\\b',
    '%\\%%',
    '50\\% %',
    'é',
    '%Ï%',
    'x.y*z',
    '[a-z]',
    '%\n%',
    '_',
    'a_b',
    '%😀%',
    'a\\',
  ];

  it('matches as the built-in LIKE does, pattern by pattern', () => {
    for (const pattern of patterns)
      for (const value of values)
        expect(likeWithBackslashEscape(pattern, value), `${JSON.stringify(value)} LIKE ${JSON.stringify(pattern)}`).toBe(
          builtIn.get(value, pattern)!.hit,
        );
    expect(likeWithBackslashEscape(null, 'a')).toBeNull();
    expect(likeWithBackslashEscape('%', null)).toBeNull();
  });

  it('escapeLike: a text finds itself and nothing its wildcards would', () => {
    for (const text of ['50%', 'a_b', 'a\\b', '%_\\']) {
      const pattern = `%${escapeLike(text)}%`;
      for (const value of values)
        expect(likeWithBackslashEscape(pattern, value), `${value} / ${text}`).toBe(
          value.toLowerCase().includes(text.toLowerCase()) ? 1 : 0,
        );
    }
  });
});
