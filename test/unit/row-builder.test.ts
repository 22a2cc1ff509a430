// Rows read as arrays and made objects by a builder compiled per statement answer what
// better-sqlite3's own row objects answer, with BOOLEAN columns as booleans.
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { rowBuilder } from '../../src/db/client.js';

describe('rowBuilder', () => {
  const db = new Database(':memory:');
  afterAll(() => db.close());
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, "name with ""quotes""" TEXT, flag BOOLEAN, "__proto__" TEXT, amount REAL, data BLOB);
    INSERT INTO t VALUES (1, 'a', 1, 'p', 1.5, x'00ff'), (2, NULL, 0, NULL, NULL, NULL), (3, 'c', NULL, '', 0, NULL)`);
  const statement = db.prepare('SELECT * FROM t ORDER BY id');

  it('builds the objects better-sqlite3 builds, booleans made of 0/1', () => {
    // better-sqlite3's own objects drop a __proto__ column; this comparison leaves it out.
    const statement = db.prepare(`SELECT id, "name with ""quotes""", flag, amount, data FROM t ORDER BY id`);
    const build = rowBuilder(statement.columns());
    const built = (statement.raw(true).all() as unknown[][]).map(build);
    const expected = (statement.raw(false).all() as Record<string, unknown>[]).map((row) => ({
      ...row,
      flag: row.flag === null ? null : row.flag !== 0,
    }));
    expect(built).toEqual(expected);
    expect(built.map((row) => row.flag)).toEqual([true, false, null]);
  });

  it('keeps a column named __proto__ as an own key, never as the prototype', () => {
    const [row] = (statement.raw(true).all() as unknown[][]).map(rowBuilder(statement.columns()));
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row)).toContain('__proto__');
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('p');
  });
});
