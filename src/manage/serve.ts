// Serves the calendar editor: the static page in this folder at /manage, as the task console is
// served (same caching and CSP). The page talks to /graphql only, with the console's API module.
import { join } from 'node:path';
import type { Middleware } from 'koa';
import { staticPageRoutes } from '../console/serve.js';
import { projectRoot } from '../paths.js';

export const MANAGE_PATH = '/manage';

export function manageRoutes(): Middleware {
  return staticPageRoutes(MANAGE_PATH, join(projectRoot, 'src/manage'));
}
