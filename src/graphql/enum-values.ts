import { GraphQLEnumType } from 'graphql';
import { schema } from './schema.js';

/** The values of a GraphQL enum (task and run statuses): the REST API answers the same values. */
export function enumValues(name: string): string[] {
  const type = schema.getType(name);
  if (!(type instanceof GraphQLEnumType)) throw new Error(`no GraphQL enum ${name}`);
  return type.getValues().map((value) => String(value.value));
}
