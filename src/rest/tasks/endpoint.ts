// What a task API route is: the handler's request, the endpoint's extra declarations (who may call
// it, what a success answers) and where its arguments come from. The rows are in routes.ts; the
// router and the OpenAPI document read them through these types.
import type { TadaDocumentNode } from 'gql.tada';
import type { Args, Endpoint, Route } from '../route-table.js';

type Schema = Record<string, unknown>;

/** What a task endpoint's handler is given: checked arguments and the caller's GraphQL. */
export interface TaskRequest {
  /** Path parameters, decoded. */
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  /** The caller sent an API key (a valid one: an unknown key was refused). */
  hasKey: boolean;
  /** Runs a GraphQL operation as the caller: the `data` of a successful result, typed by the
   *  document (its variables are the checked arguments, which GraphQL coerces in turn). */
  graphql<Data, Variables>(operation: TadaDocumentNode<Data, Variables>, variables: Record<string, unknown>): Promise<Data>;
}

export interface TaskEndpoint extends Endpoint<TaskRequest> {
  /** key: an API key is required; none: public; token: the run's share token, or the owner's key. */
  auth: 'key' | 'none' | 'token';
  /** The body may carry files as base64: it may be larger by TASK_MAX_UPLOAD_BYTES (as base64). */
  takesFiles?: true;
  /** What a success answers, for the OpenAPI document: the JSON Schema of `data`, and of the
   *  envelope's other keys. Absent: the route answers bytes, or a body of its own. */
  answer?: { data: Schema; extra?: Record<string, Schema> };
}

export type TaskRoute = Route<TaskEndpoint>;

/** Where an endpoint's args come from: a read's from the query; a write's from its JSON body, but
 *  those declared `in: 'query'`. */
export function argsByPlace(endpoint: TaskEndpoint): { query: Args; body: Args } {
  const write = !endpoint.methods.includes('GET');
  const entries = Object.entries(endpoint.args ?? {});
  return {
    query: Object.fromEntries(entries.filter(([, spec]) => !write || spec.in === 'query')),
    body: Object.fromEntries(entries.filter(([, spec]) => write && spec.in !== 'query')),
  };
}
