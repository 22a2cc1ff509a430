// Generates both Prisma clients (SQLite and PostgreSQL) from the one committed schema.
// The PostgreSQL schema is derived into a gitignored folder: two lines differ, the datasource
// provider and the client output (relative to the derived file's folder).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= 'package.json';
process.env.CHECKPOINT_DISABLE ??= '1';
process.env.PRISMA_HIDE_UPDATE_MESSAGE ??= '1';

const source = readFileSync('prisma/schema.prisma', 'utf8');

// Generation takes ~12 s and `npm start` runs it first: skip it when the clients on disk were made
// from this very schema, script and locked dependencies (a stamp beside them; --force regenerates).
const inputs = ['package-lock.json', 'scripts/prisma-generate.mjs'].map((file) => readFileSync(file, 'utf8'));
const stamp = createHash('sha256')
  .update([...inputs, source].join('\n'))
  .digest('hex');
const STAMP = 'src/generated/.stamp';
const outputs = ['src/generated/sqlite/client.ts', 'src/generated/postgresql/client.ts', 'src/generated/pothos-types.ts'];
if (
  !process.argv.includes('--force') &&
  existsSync(STAMP) &&
  readFileSync(STAMP, 'utf8') === stamp &&
  outputs.every((f) => existsSync(f))
) {
  console.log('prisma-generate: clients are up to date');
  process.exit(0);
}
const derived = source
  .replace('provider = "sqlite"', 'provider = "postgresql"')
  .replace('output   = "../src/generated/sqlite"', 'output   = "../../src/generated/postgresql"');
if (derived === source || !derived.includes('../../src/generated/postgresql')) {
  throw new Error('prisma-generate: could not derive the PostgreSQL schema; check the datasource and generator lines');
}
mkdirSync('prisma/generated', { recursive: true });
writeFileSync('prisma/generated/postgresql.prisma', derived);

const run = (args) => execFileSync('npx', ['prisma', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
run(['generate', '--schema', 'prisma/schema.prisma']);
run(['generate', '--schema', 'prisma/generated/postgresql.prisma', '--generator', 'client']);
writeFileSync(STAMP, stamp);
console.log('prisma-generate: sqlite and postgresql clients generated');
