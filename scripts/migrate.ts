// npm run db:migrate -- <name>   create a migration (both providers) from schema changes
// npm run db:deploy              apply pending migrations to DATABASE_URL
// npm run db:check               exit 1 when the schema changed without a migration
import { createMigration, deployMigrations, schemaHasUnmigratedChanges } from '../src/db/migrations.js';

const [command, name] = process.argv.slice(2);
const url = process.env.DATABASE_URL ?? 'file:./data/almanac.db';

try {
  if (command === 'create') {
    if (!name) throw new Error('usage: npm run db:migrate -- <name>');
    const created = await createMigration(name);
    console.log(created ? `created migration ${created}` : 'no schema changes: nothing to migrate');
  } else if (command === 'deploy') {
    const applied = await deployMigrations(url);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  } else if (command === 'check') {
    if (await schemaHasUnmigratedChanges()) {
      console.error('prisma/schema.prisma changed without a migration: run npm run db:migrate -- <name>');
      process.exit(1);
    }
    console.log('migrations match the schema');
  } else {
    throw new Error('usage: migrate.ts create <name> | deploy | check');
  }
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
