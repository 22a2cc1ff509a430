// Fresh, uniquely named databases for one test file: a temporary SQLite file, or a PostgreSQL
// database created on the local server and dropped afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseKind } from '../../src/db/url.js';

export const DATABASE_KINDS: DatabaseKind[] = ['sqlite', 'postgresql'];
const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  kind: DatabaseKind;
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const name = `almanac_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'almanac-'));
    return { kind, url: `file:${join(dir, `${name}.db`)}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
