// GraphQL error codes (extensions.code) → the original's REST errors (spec §5). The GraphQL
// messages are already the original's; only codes, statuses and argument names are translated.
import type { GraphQLError } from 'graphql';
import { RestError, forbidden, internalError, invalidParams } from '../errors.js';
import type { GraphQLData } from '../../graphql/execute.js';

export type RecordKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

// REST argument names ↔ GraphQL input fields: snake_case ↔ camelCase, and a venue's or organizer's
// name, which REST calls by its kind.
const namedByKind = (kind: RecordKind) => kind === 'venue' || kind === 'organizer';

/** GraphQL argument name → REST argument name. */
export function restArgName(name: string, kind: RecordKind): string {
  if (name === 'name' && namedByKind(kind)) return kind;
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** REST argument name → GraphQL input field. */
export function graphqlArgName(name: string, kind: RecordKind): string {
  if (name === kind && namedByKind(kind)) return 'name';
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function restError(error: GraphQLError, kind: RecordKind): RestError {
  const ext = error.extensions ?? {};
  const message = error.message;
  switch (ext.code) {
    case 'INVALID_INPUT': {
      const params: Record<string, string> = {};
      for (const [name, reason] of Object.entries((ext.params ?? {}) as Record<string, string>)) params[restArgName(name, kind)] = reason;
      return invalidParams(params, (ext.details ?? {}) as Record<string, unknown>);
    }
    case 'UNAUTHENTICATED':
      return forbidden(false);
    case 'FORBIDDEN':
      return forbidden(true);
    case 'NOT_FOUND':
      return new RestError('rest-event-not-found', message, 404);
    case 'WRONG_TYPE':
      return new RestError('rest-invalid-event-id', message, 400);
    case 'TRASHED':
      return new RestError('event-no-longer-available', message, 403);
    case 'NOT_ACCESSIBLE':
      return new RestError(`${kind}-not-accessible`, message, 403);
    case 'PASSWORD_REQUIRED':
      return new RestError('event-password-protected', message, 403);
    case 'ALREADY_TRASHED':
      return new RestError(`${kind}-is-in-trash`, message, 410);
    case 'TERM_EXISTS':
      // WP_REST_Terms_Controller adds the id twice before the {status, term_id} data, and
      // rest_convert_error_to_response lists those earlier data as additional_data.
      return new RestError('term_exists', message, 400, { term_id: ext.termId }, { additional_data: [ext.termId, ext.termId] });
    case 'CONFLICT':
      if (kind !== 'category' && kind !== 'tag') return internalError();
      // wp_update_term's duplicate_term_slug, with the original's message; the original answers 500
      // with `data: null`, Almanac a 400 (a client's mistake is never a 5xx: README, deviations).
      return new RestError('duplicate_term_slug', message.replace(/“/g, '&#8220;').replace(/”/g, '&#8221;'), 400);
    case 'NOT_HIERARCHICAL':
      return new RestError('rest_taxonomy_not_hierarchical', message, 400);
    case 'COULD_NOT_CREATE_VENUE':
      return new RestError('could-not-create-venue', message, 400);
    case 'COULD_NOT_CREATE_ORGANIZER':
      return new RestError('could-not-create-organizer', message, 400);
    case 'INVALID_LINKED_POST':
      return new RestError('invalid-linked-post-id', message, 400);
    default:
      return internalError();
  }
}

/** Runs an operation for a REST handler: its data, or the first error translated and thrown. */
export async function run<T = GraphQLData>(
  req: {
    graphql: (source: string, variables?: Record<string, unknown>) => Promise<{ data?: GraphQLData; errors?: readonly GraphQLError[] }>;
  },
  kind: RecordKind,
  source: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const result = await req.graphql(source, variables);
  if (result.errors?.length) {
    const error = result.errors[0];
    // Errors without a code are bugs, not client mistakes: let the framework log them and answer
    // 500. A database fault (SERVICE_UNAVAILABLE) goes to the framework as it is too: a 503.
    if (!error.extensions?.code || error.extensions.code === 'SERVICE_UNAVAILABLE') throw error.originalError ?? error;
    throw restError(error, kind);
  }
  return result.data as T;
}
