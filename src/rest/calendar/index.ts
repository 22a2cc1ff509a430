// The calendar's REST API: the route table in the original's registration order (it is also the
// namespace index's order), and the /doc document's data.
import type { OperationOptions } from '../../graphql/context.js';
import type { RouteTable } from '../route-table.js';
import { docInfo } from './doc.js';
import { eventRoutes } from './events.js';
import { organizerRoutes, venueRoutes } from './linked.js';
import { categoryRoutes, tagRoutes } from './terms.js';

export const calendarTable: RouteTable = [...eventRoutes, ...venueRoutes, ...organizerRoutes, ...categoryRoutes, ...tagRoutes];
export { docInfo };

/** What the table's GraphQL operations ask of the resolvers beyond the schema: the original's
 *  handling of tags named in event writes, and the masked fields that held a value (records.ts). */
export const calendarOperationOptions = (): OperationOptions => ({ wpTagQuirk: true, hiddenFields: new Map() });
