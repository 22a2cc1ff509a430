// Importing each type's file registers it on the builder; then the schema is built once.
import { builder } from './builder.js';
import '../calendar/graphql/shared.js';
import '../calendar/graphql/event.js';
import '../calendar/graphql/event-days.js';
import '../calendar/graphql/series.js';
import '../calendar/graphql/venue.js';
import '../calendar/graphql/organizer.js';
import '../calendar/graphql/terms.js';
import '../calendar/graphql/post-rights.js';
import '../calendar/graphql/import.js';
import '../calendar/graphql/sources.js';
import '../calendar/graphql/changes.js';
import '../calendar/graphql/webhooks.js';
import '../federation/graphql/federation.js';
import '../tasks/graphql/index.js';
import '../tasks/graphql/subscriptions.js';
import '../auth/graphql/api-keys.js';

export const schema = builder.toSchema({ sortSchema: false });
