// Prisma's CLI must not try to download native engines (no internet on our machines):
// pointing the schema-engine path at any existing file stops the lookup; migrations run through
// @prisma/schema-engine-wasm in scripts/migrate.ts instead.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= 'package.json';
process.env.CHECKPOINT_DISABLE ??= '1';

import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
});
