// The calendar's REST API: the route table in the original's registration order (it is also the
// namespace index's order), and the /doc document's data.
import type { RouteTable } from '../route-table.js';
import { docInfo } from './doc.js';
import { eventRoutes } from './events.js';
import { organizerRoutes, venueRoutes } from './linked.js';
import { categoryRoutes, tagRoutes } from './terms.js';

export const calendarTable: RouteTable = [...eventRoutes, ...venueRoutes, ...organizerRoutes, ...categoryRoutes, ...tagRoutes];
export { docInfo };
