import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaHasUnmigratedChanges } from '../../src/db/migrations.js';
import { printSchemaSDL } from '../../src/graphql/print.js';

describe('committed schema files', () => {
  it('schema.graphql is what the Pothos schema prints (run npm run schema:print)', () => {
    expect(readFileSync('schema.graphql', 'utf8')).toBe(printSchemaSDL());
  });

  it('prisma/schema.prisma has no changes without a migration (run npm run db:migrate -- <name>)', async () => {
    expect(await schemaHasUnmigratedChanges()).toBe(false);
  });
});
