// Create, deploy and check migrations for both providers from the one committed schema.
// Layout: prisma/migrations/<provider>/<timestamp>_<name>/migration.sql, a migration_lock.toml per
// provider, and prisma/migrations/schema.snapshot.prisma: the schema as of the last migration.
import './node-runtime.js';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { projectRoot as root } from '../paths.js';
import { withSchemaEngine } from './schema-engine.js';
import { databaseKind, sqliteFile, type DatabaseKind } from './url.js';

const schemaPath = join(root, 'prisma/schema.prisma');
const migrationsRoot = join(root, 'prisma/migrations');
const snapshotPath = join(migrationsRoot, 'schema.snapshot.prisma');
const filters = { externalTables: [], externalEnums: [] };
const providers: DatabaseKind[] = ['sqlite', 'postgresql'];

/** The committed schema as the given provider sees it (the datasource provider is the only difference that matters here). */
export function schemaFor(source: string, kind: DatabaseKind): string {
  return kind === 'sqlite' ? source : source.replace('provider = "sqlite"', 'provider = "postgresql"');
}

async function migrationsList(kind: DatabaseKind) {
  const baseDir = join(migrationsRoot, kind);
  const names = existsSync(baseDir)
    ? (await readdir(baseDir, { withFileTypes: true }))
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = join(baseDir, 'migration_lock.toml');
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? await readFile(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok' as const, value: await readFile(join(baseDir, name, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

const APPLIED_SQL = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';

/**
 * Names of the migrations already applied, read with a plain connection (null when there is no
 * migrations table yet). Lets a process that finds nothing to do skip the schema engine, whose
 * SQLite connection would otherwise wait on a running server's lock.
 */
async function appliedMigrations(url: string, kind: DatabaseKind): Promise<Set<string> | null> {
  try {
    if (kind === 'sqlite') {
      const file = sqliteFile(url);
      if (file !== ':memory:' && !existsSync(file)) return null;
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        return new Set((db.prepare(APPLIED_SQL).all() as { migration_name: string }[]).map((r) => r.migration_name));
      } finally {
        db.close();
      }
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return new Set((await client.query<{ migration_name: string }>(APPLIED_SQL)).rows.map((r) => r.migration_name));
    } finally {
      await client.end();
    }
  } catch {
    return null;
  }
}

/**
 * The PostgreSQL database a URL names, created when it does not exist yet (as `createdb` would,
 * through the server's `postgres` database with the URL's credentials), so that a first start on a
 * new name works as a first start on a new SQLite file does. Several processes starting at once
 * may race: "already exists" is success.
 */
async function ensurePostgresDatabase(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    await probe.end();
    return;
  } catch (error) {
    await probe.end().catch(() => undefined);
    if ((error as { code?: string }).code !== '3D000') return; // anything else: the schema engine reports it
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (error) {
    if ((error as { code?: string }).code !== '42P04')
      throw new Error(`Database \`${name}\` does not exist and could not be created: ${(error as Error).message}`, { cause: error });
  } finally {
    await admin.end().catch(() => undefined);
  }
}

/** Applies every pending migration to the database at `url` (creating a PostgreSQL database that
 *  does not exist yet); returns the names applied. */
export async function deployMigrations(url: string): Promise<string[]> {
  const kind = databaseKind(url);
  if (!kind) throw new Error('DATABASE_URL must start with file: or postgresql://');
  const migrationsList_ = await migrationsList(kind);
  const applied = await appliedMigrations(url, kind);
  if (applied && migrationsList_.migrationDirectories.every((d) => applied.has(d.path))) return [];
  // Only when the applied list could not be read (a new or missing database): a usual start opens no extra connection.
  if (!applied && kind === 'postgresql') await ensurePostgresDatabase(url);
  const content = schemaFor(await readFile(schemaPath, 'utf8'), kind);
  return withSchemaEngine(url, { path: schemaPath, content }, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: migrationsList_, filters });
    return out.appliedMigrationNames;
  });
}

async function diffSnapshot(kind: DatabaseKind, url: string, script: boolean) {
  const current = schemaFor(await readFile(schemaPath, 'utf8'), kind);
  const snapshot = existsSync(snapshotPath) ? schemaFor(await readFile(snapshotPath, 'utf8'), kind) : null;
  return withSchemaEngine(url, { path: schemaPath, content: current }, (engine) =>
    engine.diff({
      from: snapshot ? { tag: 'schemaDatamodel', files: [{ path: snapshotPath, content: snapshot }] } : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: current }] },
      script,
      exitCode: true,
      filters,
    }),
  );
}

/** Database URLs the engine can connect to while diffing (SQLite needs none; PostgreSQL does). */
function diffUrl(kind: DatabaseKind): string {
  return kind === 'sqlite' ? 'file::memory:' : (process.env.MIGRATE_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
}

/** True when the schema has changed since the last migration. */
export async function schemaHasUnmigratedChanges(): Promise<boolean> {
  const result = await diffSnapshot('sqlite', diffUrl('sqlite'), false);
  return result.exitCode === 2;
}

/** Writes a new migration for both providers from the schema's changes since the snapshot. */
export async function createMigration(name: string): Promise<string | null> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error('migration name: use lower-case letters, digits and _');
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dirName = `${stamp}_${name}`;
  const scripts: [DatabaseKind, string][] = [];
  for (const kind of providers) {
    const result = await diffSnapshot(kind, diffUrl(kind), true);
    if (result.exitCode !== 2) return null;
    const sql = (result as { stdout?: string }).stdout ?? '';
    scripts.push([kind, sql]);
  }
  for (const [kind, sql] of scripts) {
    const dir = join(migrationsRoot, kind, dirName);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'migration.sql'), sql);
    await writeFile(
      join(migrationsRoot, kind, 'migration_lock.toml'),
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${kind}"\n`,
    );
  }
  await writeFile(snapshotPath, await readFile(schemaPath, 'utf8'));
  return dirName;
}
