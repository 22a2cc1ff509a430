import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export type DatabaseKind = 'sqlite' | 'postgresql';

/** Which engine a DATABASE_URL names; null when it names neither. */
export function databaseKind(url: string): DatabaseKind | null {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  return null;
}

/** The SQLite file a `file:` URL points at (relative to the working directory), its folder created. */
export function sqliteFile(url: string): string {
  const path = url.slice('file:'.length).replace(/^\/\//, '').split('?')[0];
  if (path === ':memory:') return path;
  const file = resolve(path);
  mkdirSync(dirname(file), { recursive: true });
  return file;
}
