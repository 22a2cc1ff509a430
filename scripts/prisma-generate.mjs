// Generates both Prisma clients (SQLite and PostgreSQL) from the one committed schema.
// The PostgreSQL schema is derived into a gitignored folder: two lines differ, the datasource
// provider and the client output (relative to the derived file's folder).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= 'package.json';
process.env.CHECKPOINT_DISABLE ??= '1';
process.env.PRISMA_HIDE_UPDATE_MESSAGE ??= '1';

const source = readFileSync('prisma/schema.prisma', 'utf8');
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
console.log('prisma-generate: sqlite and postgresql clients generated');
