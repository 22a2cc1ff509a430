// PHP's and tribe-common's primitives, against their documented behaviour: the examples of php.net
// (is_numeric, intval, floatval, boolval, empty, urldecode/urlencode) and tribe_is_truthy's list.
import { describe, expect, it } from 'vitest';
import { phpBool, phpEmpty, phpFloatval, phpIntval, phpIsNumeric, phpStrval } from '../../src/php/casts.js';
import { phpStrtolower } from '../../src/php/strings.js';
import { listToArray, splitList, tribeIsTruthy } from '../../src/php/tribe.js';
import { phpUrldecode, phpUrlencode } from '../../src/php/url-encoding.js';

describe('is_numeric (php.net examples)', () => {
  it('numbers and numeric strings', () => {
    // "42", 1337, 1337e0, "02471", "1337e0", 9.1 are numeric; PHP 8 allows trailing whitespace too.
    for (const v of ['42', 1337, 1337, '02471', '1337e0', 9.1, ' 42', '42 ', '-1.5', '.5', '+3', '1.', ' \t\n1\r\v\f'])
      expect(phpIsNumeric(v), JSON.stringify(v)).toBe(true);
  });

  it('not numeric: hex, binary, words, arrays, null, empty, non-ASCII spaces', () => {
    // "0x539", "0b10100111001", "not numeric", array(), null, '' are not; nor "\u{A0}9001".
    for (const v of ['0x539', '0b10100111001', 'not numeric', [], null, '', '\u{A0}9001', '9001\u{A0}', '1 2', '1,5', '.', 'e5', true])
      expect(phpIsNumeric(v), JSON.stringify(v)).toBe(false);
  });
});

describe('casts', () => {
  it('intval (php.net examples, base 10)', () => {
    const cases: [unknown, number][] = [
      [42, 42],
      [4.2, 4],
      ['42', 42],
      ['+42', 42],
      ['-42', -42],
      ['042', 42],
      [1e10, 10000000000],
      ['1e10', 10000000000],
      ['0x1A', 0],
      [42000000, 42000000],
      [[], 0],
      [['foo', 'bar'], 1],
      [false, 0],
      [true, 1],
    ];
    for (const [value, int] of cases) expect(phpIntval(value), JSON.stringify(value)).toBe(int);
  });

  it('intval reads a leading number and truncates toward zero', () => {
    expect(['12abc', ' 7', '1.9', '-1.9', 'foo', null, NaN, Infinity].map(phpIntval)).toEqual([12, 7, 1, -1, 0, 0, 0, 0]);
  });

  it('floatval (php.net examples)', () => {
    expect(phpFloatval('122.34343The')).toBe(122.34343);
    expect(phpFloatval('The122.34343')).toBe(0);
    expect(phpFloatval('1e3')).toBe(1000);
    expect([phpFloatval('-.5e1x'), phpFloatval(true), phpFloatval({}), phpFloatval({ a: 1 })]).toEqual([-5, 1, 0, 1]);
  });

  it('boolval (php.net examples) and empty()', () => {
    const cases: [unknown, boolean][] = [
      [0, false],
      [42, true],
      [0.0, false],
      [4.2, true],
      ['', false],
      ['string', true],
      ['0', false],
      ['1', true],
      [[1, 2], true],
      [[], false],
      [null, false],
      ['0.0', true],
      [' ', true],
      ['false', true],
    ];
    for (const [value, bool] of cases) {
      expect(phpBool(value), JSON.stringify(value)).toBe(bool);
      expect(phpEmpty(value), JSON.stringify(value)).toBe(!bool);
    }
    // A JSON object is a PHP associative array (json_decode(…, true)): empty when it has no keys.
    expect([phpBool({}), phpBool({ a: 0 })]).toEqual([false, true]);
  });

  it('(string) of scalars', () => {
    expect([true, false, null, 'x', 3, 1.5].map(phpStrval)).toEqual(['1', '', '', 'x', '3', '1.5']);
  });
});

describe('strings and URLs', () => {
  it('strtolower lowers ASCII letters only', () => {
    expect(phpStrtolower('MuSiC Éclair ÄÖ')).toBe('music Éclair ÄÖ');
  });

  it('urldecode: "+" is a space, %XX are UTF-8 bytes, malformed escapes stay', () => {
    expect(phpUrldecode('a+b%2Cc%C3%A9%zz')).toBe('a b,cé%zz');
    expect(phpUrldecode('%')).toBe('%');
  });

  it('urlencode: RFC 1738, only A-Za-z0-9_.- unescaped (php.net: "-_." kept, spaces as "+")', () => {
    expect(phpUrlencode("a b:c/~*é'-_.")).toBe('a+b%3Ac%2F%7E%2A%C3%A9%27-_.');
  });
});

describe('Tribe__Utils__Array::list_to_array', () => {
  it('splits strings at the separator and the whitespace around it; numeric items become numbers', () => {
    expect(listToArray('a , 2,, b ,3.5')).toEqual(['a', 2, 'b', 3.5]);
    expect(listToArray('1e3, +4, 012, 0x1A')).toEqual([1000, 4, 12, '0x1A']);
    expect(listToArray('a|b | 3', '|')).toEqual(['a', 'b', 3]);
  });

  it('keeps the whitespace at both ends of the string, as preg_split does', () => {
    expect(listToArray(' a , b ')).toEqual([' a', 'b ']);
    expect(listToArray(' 7 ')).toEqual([7]);
  });

  it('URL-decodes strings, not array items', () => {
    expect(listToArray('music%2Cart')).toEqual(['music', 'art']);
    expect(listToArray(['music%2Cart'])).toEqual(['music%2Cart']);
  });

  it('arrays keep their items but drop "" and make numeric strings numbers; objects give their values', () => {
    expect(listToArray(['x', '', '12', 4, ' jazz ', true])).toEqual(['x', 12, 4, ' jazz ', true]);
    expect(listToArray({ a: '3', b: 'y' })).toEqual([3, 'y']);
  });

  it('PHP-empty input is an empty list; "0" too (empty() comes first)', () => {
    for (const v of ['', '0', 0, false, null, undefined, [], {}]) expect(listToArray(v), JSON.stringify(v)).toEqual([]);
    expect([listToArray('%30'), listToArray('0,0'), listToArray(['0'])]).toEqual([[0], [0, 0], [0]]);
  });

  it('splitList: the split alone, without the empty() and urldecode steps', () => {
    expect(splitList('0')).toEqual([0]);
    expect(splitList('2,music%2C')).toEqual([2, 'music%2C']);
  });
});

describe('tribe_is_truthy', () => {
  it('true for its truthy strings in any case', () => {
    for (const v of ['1', 'enable', 'enabled', 'on', 'y', 'yes', 'true', 'TRUE', 'Yes', 'ON', 'Enabled'])
      expect(tribeIsTruthy(v), v).toBe(true);
  });

  it('false for every other string, numeric or not', () => {
    for (const v of ['0', 'false', 'no', '', ' true', 'true ', '2', '1.0', 'foo']) expect(tribeIsTruthy(v), v).toBe(false);
  });

  it('booleans as they are; other types as PHP (bool)', () => {
    const cases: [unknown, boolean][] = [
      [true, true],
      [false, false],
      [1, true],
      [-3, true],
      [0.5, true],
      [0, false],
      [null, false],
      [undefined, false],
      [[], false],
      [[0], true],
      [{}, false],
      [{ a: 1 }, true],
    ];
    for (const [value, truthy] of cases) expect(tribeIsTruthy(value), JSON.stringify(value)).toBe(truthy);
  });
});
