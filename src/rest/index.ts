// The generic REST framework: declare a route table, serve restTable() with the app's one router
// (src/http/router.ts). See route-table.ts.
//
//   const table: RouteTable = [{
//     path: '/events/(?P<id>\\d+)',
//     args: { id: { type: 'integer', description: 'the event post ID', required: true, in: 'path' } },
//     endpoints: [
//       { methods: READABLE, handler: async (req) => ok(await readEvent(req)), doc: { responses } },
//       { methods: EDITABLE, args: UPDATE_ARGS, permission: canEdit, handler: update,
//         doc: { parameters: ['id'], requestBody: { args: CREATE_ARGS }, responses } },
//     ],
//   }];
//   app.use(serveTables([restTable({ table, docInfo, config, authenticate, runner, context })], logger));
export { restTable, type RestTableOptions } from './router.js';
export type { DocInfo } from './openapi.js';
export * from './route-table.js';
export * from './errors.js';
export * as args from './args.js';
export { buildQuery } from './request.js';
export { encodePhpJson } from './json.js';
