// The calendar editor: the static page in this folder at /manage, served as the task console is
// (same row, caching and CSP). The page talks to /graphql only, with the console's API module.
import { join } from 'node:path';
import { staticPageRoute } from '../console/serve.js';
import { projectRoot } from '../paths.js';

export const MANAGE_PATH = '/manage';

export const manageRoute = () => staticPageRoute(MANAGE_PATH, join(projectRoot, 'src/manage'));
