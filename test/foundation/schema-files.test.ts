import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaHasUnmigratedChanges } from '../../src/db/migrations.js';
import { printSchemaSDL } from '../../src/graphql/print.js';

describe('committed schema files', () => {
  it('schema.graphql is what the Pothos schema prints (run npm run schema:print)', () => {
    expect(readFileSync('schema.graphql', 'utf8')).toBe(printSchemaSDL());
  });

  it("the public schema carries none of the REST layer's private options (issue 17)", () => {
    // The tag quirk and the masked-field report travel in the REST runner's context, not in the schema.
    for (const name of ['wpTagQuirk', 'hiddenFields']) expect(printSchemaSDL()).not.toContain(name);
  });

  it('prisma/schema.prisma has no changes without a migration (run npm run db:migrate -- <name>)', async () => {
    expect(await schemaHasUnmigratedChanges()).toBe(false);
  });
});
