// The task service's GraphQL types, queries and mutations (imported once by src/graphql/schema.ts).
import './task.js';
import './run.js';
import './tools.js';
import './profiles.js';
import './files.js';
import './schedule.js';
import './trace.js';
