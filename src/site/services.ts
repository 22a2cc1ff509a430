// What the site's pages and feeds need from the app: the config, in-process GraphQL, and the
// caller's GraphQL context (an API key may come with the request; pages are public otherwise).
import type { Context } from 'koa';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { GraphQLContext } from '../graphql/context.js';
import type { OperationRunner } from '../graphql/execute.js';
import { throttledMessage, type Authenticate, type CallerRefusal } from '../http/caller.js';
import { RestError } from '../rest/errors.js';

export interface SiteServices {
  config: Config;
  runner: OperationRunner;
  /** The caller's context; a request with a key that matches nothing is a 401. */
  graphqlContext(ctx: Context): Promise<GraphQLContext>;
  /** The calendar's data version: changes with every committed write to what a page or feed shows. */
  dataVersion(): Promise<number>;
}

export interface SiteOptions {
  config: Config;
  runner: OperationRunner;
  authenticate: Authenticate;
  context(viewer: Viewer | null): GraphQLContext;
  dataVersion(): Promise<number>;
}

/** A page or feed that cannot be served: its status and a message for the visitor. */
export class SiteError extends RestError {
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super('site_error', message, status, {}, {}, headers);
  }
}

const refuseCaller = (reason: CallerRefusal, retryAfter = 0) =>
  reason === 'throttled'
    ? new SiteError(429, throttledMessage(retryAfter), { 'Retry-After': String(retryAfter) })
    : new SiteError(401, 'Invalid API key.');

export function siteServices({ config, runner, authenticate, context, dataVersion }: SiteOptions): SiteServices {
  return {
    config,
    runner,
    dataVersion,
    async graphqlContext(ctx) {
      return context(await authenticate(ctx, { refuse: refuseCaller }));
    },
  };
}
