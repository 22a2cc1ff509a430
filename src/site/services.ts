// What the site's pages and feeds need from the app: the config, in-process GraphQL, and the
// caller's GraphQL context (an API key may come with the request; pages are public otherwise).
import type { Context } from 'koa';
import type { Viewer } from '../auth/viewer.js';
import type { Config } from '../config.js';
import type { GraphQLContext } from '../graphql/context.js';
import type { OperationRunner } from '../graphql/execute.js';

export interface SiteServices {
  config: Config;
  runner: OperationRunner;
  /** The caller's context; a request with a key that matches nothing is a 401. */
  graphqlContext(ctx: Context): Promise<GraphQLContext>;
}

export interface SiteOptions {
  config: Config;
  runner: OperationRunner;
  resolveViewer(ctx: Context): Promise<Viewer | null | 'invalid'>;
  context(viewer: Viewer | null): GraphQLContext;
}

/** A page or feed that cannot be served: its status and a message for the visitor. */
export class SiteError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function siteServices({ config, runner, resolveViewer, context }: SiteOptions): SiteServices {
  return {
    config,
    runner,
    async graphqlContext(ctx) {
      const viewer = await resolveViewer(ctx);
      if (viewer === 'invalid') throw new SiteError(401, 'Invalid API key.');
      return context(viewer);
    },
  };
}
