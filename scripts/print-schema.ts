// Prints the Pothos schema to schema.graphql (committed; test/graphql/schema-file.test.ts fails when stale).
import { writeFileSync } from 'node:fs';
import { printSchemaSDL } from '../src/graphql/print.js';

writeFileSync('schema.graphql', printSchemaSDL());
console.log('schema.graphql written');
