// The columns fields declare they read (src/graphql/selected-columns.ts) name real columns: a name
// that is not its table's would silently make every selection holding the field read all columns.
import { describe, expect, it } from 'vitest';
import { isObjectType } from 'graphql';
import { schema } from '../../src/graphql/schema.js';
import { EVENT_TABLE, ORGANIZER_TABLE, TERM_TABLE, VENUE_TABLE } from '../../src/db/tables.js';

const TABLES = { Event: EVENT_TABLE, Venue: VENUE_TABLE, Organizer: ORGANIZER_TABLE, EventCategory: TERM_TABLE, Tag: TERM_TABLE };

describe('declared column reads', () => {
  for (const [typeName, table] of Object.entries(TABLES)) {
    it(`${typeName}: every field's declared columns are ${table.table}'s, and most fields declare them`, () => {
      const type = schema.getType(typeName);
      if (!isObjectType(type)) throw new Error(`${typeName} is not an object type`);
      let declared = 0;
      for (const field of Object.values(type.getFields())) {
        const extensions = field.extensions as { pothosExposedField?: string; readsColumns?: string[] };
        const columns = extensions.readsColumns ?? (extensions.pothosExposedField ? [extensions.pothosExposedField] : undefined);
        if (!columns) continue;
        declared++;
        for (const column of columns) expect(table.columns.has(column), `${typeName}.${field.name} reads ${column}`).toBe(true);
      }
      // Those that declare nothing (relations, JSON-LD, `masked`) read every column.
      expect(declared / Object.keys(type.getFields()).length).toBeGreaterThan(0.7);
    });
  }
});
