import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema.js';

export function printSchemaSDL(): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
