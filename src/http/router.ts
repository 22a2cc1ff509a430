// The app's one router. Every route Almanac serves is a row of a route table (rest/route-table.ts):
// the calendar REST API, the task API, GraphQL and health, the site's pages and feeds, the console's
// and the editor's files. This middleware serves them all, in one order of steps:
//
//   claim the path → begin (what the table does before matching) → match a row → run it
//   → on any error, the one error path (error-answer.ts) in the table's envelope → send
//
// What differs between tables is chosen per table, never re-implemented: who may call (auth.ts),
// how arguments are read and checked, the error envelope, how an answer is encoded. Request ids,
// the access log and CORS are the app's, for every table alike (app.ts, cors.ts).
import type { Context, Middleware } from 'koa';
import { errorAnswer, type ErrorEnvelope } from '../rest/error-answer.js';
import type { RestError } from '../rest/errors.js';
import { matchRoute, methodsOnPath, type AnyEndpoint, type CompiledRoute, type RestResult, type RouteMatch } from '../rest/route-table.js';
import type { Logger } from './logger.js';
import type { FaultNote } from './unavailable.js';

/** What a row answers, before the table encodes it. */
export type Answer = RestResult;

/** One request as a table handles it; made by the table's `claim`. */
export interface TableCall<E extends AnyEndpoint> {
  /** The path the table's rows match (a namespace's rows see it whole, a prefix's what follows it). */
  readonly path: string;
  /** The method the rows match, read after `begin` (WordPress lets `_method` override the request's). */
  readonly method: string;
  /** The rows this request is matched against. */
  readonly routes: readonly CompiledRoute<E>[];
  /** Before matching: may answer at once, with an answer to send or by writing it ('answered': a
   *  kept answer, already encoded), as WordPress's root index and OPTIONS do. */
  begin?(): Promise<Answer | 'answered' | undefined>;
  /** No row has this path and method: the error to answer, or undefined when the path is left to
   *  the next table (the tables of whole paths share the path space). */
  unmatched(): unknown;
  /** Runs the matched row: its caller, arguments and handler. Undefined: the row wrote the answer. */
  run(match: RouteMatch<E>): Promise<Answer | undefined | void>;
  /** The shape of an error's answer. */
  readonly envelope: ErrorEnvelope;
  /** Turns an exception the table knows into an error of its envelope (before a 500). */
  mapError?(error: unknown): RestError | undefined;
  /** Writes an answer, a row's or an error's, in the table's encoding. */
  send(answer: Answer): void | Promise<void>;
}

export interface Table<E extends AnyEndpoint = AnyEndpoint> {
  /** Names the table in the log of an unexpected failure. */
  readonly name: string;
  /** The request as this table handles it, or undefined when the path is not the table's. */
  claim(ctx: Context): TableCall<E> | undefined;
}

/** Serves the tables, first claim first; a path no table answers goes on to Koa's 404. */
export function serveTables(tables: readonly Table[], logger: Pick<Logger, 'error'>): Middleware {
  return async (ctx, next) => {
    for (const table of tables) {
      const call = table.claim(ctx);
      if (!call) continue;
      let answer: Answer | 'answered' | undefined | void;
      try {
        answer = await call.begin?.();
        if (answer === undefined) {
          const match = matchRoute(call.routes, call.path, call.method);
          if (!match) {
            const refusal = call.unmatched();
            if (refusal === undefined) continue;
            throw refusal;
          }
          answer = await call.run(match);
        }
      } catch (error) {
        answer = errorAnswer(error, {
          envelope: call.envelope,
          state: ctx.state as FaultNote,
          mapError: call.mapError?.bind(call),
          logger,
          logFields: { requestId: (ctx.state as { requestId?: string }).requestId, table: table.name, path: ctx.path },
        });
      }
      if (answer && answer !== 'answered') await call.send(answer);
      return;
    }
    await next();
  };
}

/** Writes an answer as it is: status, headers (before the body, so that a Buffer body keeps the
 *  Content-Type they name), the body; with `type` when the table gives every error one. */
export function writeAnswer(ctx: Context, answer: Answer, type?: string): void {
  ctx.status = answer.status;
  ctx.set(answer.headers ?? {});
  if (type) ctx.type = type;
  ctx.body = answer.body;
}

/** The Allow of a 405: the methods of the rows that have the path (HEAD with GET); undefined when
 *  no row has it. */
export function allowedOn(routes: readonly CompiledRoute<AnyEndpoint>[], path: string, { head = false } = {}): string | undefined {
  const methods = methodsOnPath(routes, path);
  if (!methods.length) return undefined;
  return (head ? methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])) : methods).join(', ');
}

/** The path's named groups decoded; a malformed escape is the table's error. */
export function decodeParams(params: Record<string, string>, malformed: (segment: string) => Error): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      throw malformed(value);
    }
  }
  return decoded;
}
