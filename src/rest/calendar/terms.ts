// Event categories and tags (spec §2.7, §3.4.2): the archive, create, and read/update/delete by id,
// translated onto the GraphQL term API. One definition generates both; they differ only in the data
// of TERMS below (categories are hierarchical: a `parent` arg, and the WordPress capability).
//
// Order of checks (spec §0.3): TEC's validators (the list filters, the id and a parent are checked
// by GraphQL) → permission (which also gives the Allow header) → the GraphQL mutation, whose own
// errors come last (rest_taxonomy_not_hierarchical, term_exists).
import { canManageCategories, canManageTags } from '../../calendar/capabilities.js';
import { isNonEmptyString, restIsBoolean, restSanitizeBoolean } from '../args.js';
import { phpEmpty, phpIntval, phpStrval } from '../../php/casts.js';
import { listToArray } from '../../php/tribe.js';
import { isPlainObject } from '../../values.js';
import {
  CREATABLE,
  DELETABLE,
  EDITABLE,
  READABLE,
  created,
  ok,
  type ArgSpec,
  type Args,
  type RestRequest,
  type Route,
} from '../route-table.js';
import {
  archiveResponses,
  editArgs,
  invalidArgs,
  isInvalidParam,
  memo,
  nextUrl,
  pageArg,
  pageVariables,
  perPageArg,
  previousUrl,
  response,
  restRoot,
  totalHeaders,
  unwrap,
  gqlInt,
  INT32_MAX,
  type Outcome,
} from './common.js';
import { run } from './errors.js';
import { ref, selection, type ResultObject } from './item-schema.js';
import { CATEGORY_TERMS, TAG_TERMS, termRecord } from './records.js';

type Validate = NonNullable<ArgSpec['validate']>;

interface TermKind {
  kind: 'category' | 'tag';
  /** Route and data key. */
  plural: 'categories' | 'tags';
  /** "event category" / "event tag": TEC's descriptions. */
  what: string;
  whatPlural: string;
  hierarchical: boolean;
  fields: string;
  canManage: (viewer: RestRequest['viewer']) => boolean;
  /** GraphQL names: the single query, the list query, the type stem. */
  gql: { one: string; many: string; type: string };
  /** WordPress's own REST route for the taxonomy, its `_links`' post types (wp/v2 bases and query var). */
  wp: { taxonomy: string; base: string; queryVar: string; postTypes: string[] };
  /** Quirks of the original's /doc: categories document `id` as a body field; tags' 404 text. */
  doc: { idInBody: boolean; notFound?: string };
}

const TERMS: Record<'category' | 'tag', TermKind> = {
  category: {
    kind: 'category',
    plural: 'categories',
    what: 'event category',
    whatPlural: 'event categories',
    hierarchical: true,
    fields: selection(CATEGORY_TERMS.record, false),
    canManage: canManageCategories,
    gql: { one: 'eventCategory', many: 'eventCategories', type: 'EventCategory' },
    wp: {
      taxonomy: 'tribe_events_cat',
      base: 'tribe_events_cat',
      queryVar: 'tribe_events_cat',
      postTypes: ['tribe_events', 'tec_calendar_embed'],
    },
    doc: { idInBody: true },
  },
  tag: {
    kind: 'tag',
    plural: 'tags',
    what: 'event tag',
    whatPlural: 'event tags',
    hierarchical: false,
    fields: selection(TAG_TERMS.record, false),
    canManage: canManageTags,
    gql: { one: 'tag', many: 'tags', type: 'Tag' },
    wp: { taxonomy: 'post_tag', base: 'tags', queryVar: 'tags', postTypes: ['posts', 'tribe_events', 'tec_calendar_embed'] },
    doc: { idInBody: false, notFound: 'No event tags match the query or the requested page was not found.' },
  },
};

/** A list arg as GraphQL ID strings (TEC list_to_array), or undefined when it holds non-scalars. */
function idStrings(raw: unknown): string[] | undefined {
  const items = listToArray(isPlainObject(raw) ? Object.values(raw) : raw);
  return items.every((item) => typeof item === 'string' || typeof item === 'number') ? items.map(phpStrval) : undefined;
}

const text = (raw: unknown) => (typeof raw === 'string' ? raw : undefined);
const id = (raw: unknown) => (typeof raw === 'string' || typeof raw === 'number' ? phpStrval(raw) : undefined);

/**
 * WordPress's `_links` of a single term (WP_REST_Terms_Controller::prepare_links, compacted): they
 * point at WordPress's own wp/v2 routes; `self` hints the methods the caller may use there.
 */
function wpLinks(term: ResultObject, kind: TermKind, req: RestRequest) {
  const wp = `${restRoot(req)}wp/v2/`;
  const allow = kind.canManage(req.viewer) ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] : ['GET'];
  const links: Record<string, unknown> = {
    self: [{ href: `${wp}${kind.wp.base}/${term.id}`, targetHints: { allow } }],
    collection: [{ href: `${wp}${kind.wp.base}` }],
    about: [{ href: `${wp}taxonomies/${kind.wp.taxonomy}` }],
  };
  if (term.parentId) links.up = [{ href: `${wp}${kind.wp.base}/${term.parentId}`, embeddable: true }];
  links['wp:post_type'] = kind.wp.postTypes.map((type) => ({ href: `${wp}${type}?${kind.wp.queryVar}=${term.id}` }));
  links.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
  return links;
}

function termRoutes(kind: TermKind): Route[] {
  const { plural, what, gql, fields } = kind;
  const ops = {
    read: `query($id: Int) { node: ${gql.one}(id: $id) { ${fields} } }`,
    probe: `query($id: Int) { node: ${gql.one}(id: $id) { id } }`,
    list: `query($filter: ${gql.type}Filter, $page: PageInput) { page: ${gql.many}(filter: $filter, page: $page) { items { ${fields} } total totalPages } }`,
    create: `mutation($input: Create${gql.type}Input!) { node: create${gql.type}(input: $input) { ${fields} } }`,
    update: `mutation($id: Int!, $input: Update${gql.type}Input!) { node: update${gql.type}(id: $id, input: $input) { ${fields} } }`,
    remove: `mutation($id: Int!) { node: delete${gql.type}(id: $id) { ${fields} } }`,
  };
  const single = (term: ResultObject, req: RestRequest) => ({ ...termRecord(term, req), _links: wpLinks(term, kind, req) });
  const canManage = (req: RestRequest) => kind.canManage(req.viewer);

  // --- one term ----------------------------------------------------------------------------------

  /** The term the path names, loaded once per request (in full for a read); null when it does not exist. */
  const load = (req: RestRequest): Promise<Outcome<ResultObject | null>> =>
    memo(req, 'term:record', async () => {
      const id = gqlInt(req.raw.id);
      if (id === undefined || id <= 0) return null;
      const full = req.method === 'GET' || req.method === 'HEAD';
      try {
        return (await run(req, kind.kind, full ? ops.read : ops.probe, { id })).node;
      } catch (error) {
        if (isInvalidParam(error)) return null;
        throw error;
      }
    });
  /** is_event_category / is_post_tag on the path id: a term of this taxonomy. */
  const exists: Validate = async (_value, req) => (await load(req)).data !== null;

  /** is_event_category on `parent`: every listed id, slug or name is a category (GraphQL's include check). */
  const isCategory: Validate = async (value, req) => {
    const include = idStrings(value);
    if (!include?.length) return false;
    const outcome = await memo(req, 'term:parent', () =>
      run(req, kind.kind, ops.list, { filter: { include, hideEmpty: false }, page: { perPage: 1 } }),
    );
    return outcome.error === undefined;
  };

  const createArgs: Args = {
    name: { type: 'string', description: `The ${what} name`, required: true, validate: isNonEmptyString },
    description: { type: 'string', description: `The ${what} description`, validate: isNonEmptyString },
    slug: { type: 'string', description: `The ${what} slug`, validate: isNonEmptyString },
    ...(kind.hierarchical ? { parent: { type: 'integer', description: `The ${what} slug`, validate: isCategory } } : {}), // sic
  };
  const updateArgs = editArgs(createArgs);
  const idArg: Args = { id: { in: 'path', type: 'integer', description: `the ${what} term ID`, required: true, validate: exists } };

  /** The mutation input: the given fields; `parent` on tags is passed on so that GraphQL refuses it. */
  const input = (req: RestRequest) => {
    const out: Record<string, unknown> = {};
    for (const name of ['name', 'description', 'slug', 'parent']) {
      const value = req.params[name];
      if (value !== undefined && value !== null) out[name] = phpStrval(value);
    }
    return out;
  };

  const read = async (req: RestRequest) => ok(single(unwrap(await load(req))!, req));
  const create = async (req: RestRequest) => {
    const { node } = await run(req, kind.kind, ops.create, { input: input(req) });
    return created(single(node, req), { Location: `${restRoot(req)}wp/v2/${kind.wp.base}/${node.id}` });
  };
  const update = async (req: RestRequest) =>
    ok(single((await run(req, kind.kind, ops.update, { id: gqlInt(req.raw.id), input: input(req) })).node, req));
  // The record as it was, without WordPress's links (TEC answers with a fresh response).
  const remove = async (req: RestRequest) => ok(termRecord((await run(req, kind.kind, ops.remove, { id: gqlInt(req.raw.id) })).node, req));

  // --- the archive -------------------------------------------------------------------------------

  /** Each list filter GraphQL validates, from its raw value (undefined: a value GraphQL cannot even take). */
  const FILTERS: Record<string, (raw: unknown) => unknown> = {
    search: text,
    exclude: idStrings,
    include: idStrings,
    order: text,
    orderby: text,
    ...(kind.hierarchical ? { parent: (raw: unknown) => idStrings(raw)?.join(',') } : {}),
    post: id,
    event: id,
    slug: text,
  };

  /** The GraphQL filter of the request's raw args; `bad` names the values it could not take. */
  const archiveFilter = (raw: Record<string, unknown>) => {
    const filter: Record<string, unknown> = {};
    const bad = new Set<string>();
    for (const [name, convert] of Object.entries(FILTERS)) {
      if (raw[name] == null) continue;
      const value = convert(raw[name]);
      if (value === undefined) bad.add(name);
      else filter[name] = value;
    }
    if (restIsBoolean(raw.hide_empty)) filter.hideEmpty = restSanitizeBoolean(raw.hide_empty);
    // Not one of TEC's args, but WP_REST_Terms_Controller reads `offset` from the request for tags
    // (taxonomies without hierarchy) in place of the page's start, as absint() of whatever came.
    if (!kind.hierarchical && !phpEmpty(raw.offset)) filter.offset = Math.min(INT32_MAX, Math.abs(phpIntval(raw.offset)));
    return { filter, bad };
  };

  const listing = (req: RestRequest) =>
    memo(req, 'term:list', async () => {
      const { page } = await run(req, kind.kind, ops.list, { filter: archiveFilter(req.raw).filter, page: pageVariables(req.raw) });
      return page as { items: ResultObject[]; total: number; totalPages: number };
    });

  /** A list arg GraphQL validates (search, include, exclude, order, orderby, parent, post, event, slug). */
  const listArgValid: Validate = async (_value, req, name) =>
    !archiveFilter(req.raw).bad.has(name) && !invalidArgs(await listing(req)).has(name);

  const archive = async (req: RestRequest) => {
    const { items, total, totalPages } = unwrap(await listing(req));
    const page = req.params.page as number;
    const restUrl = req.url(`/${plural}/`);
    const body: Record<string, unknown> = {
      rest_url: restUrl,
      total,
      total_pages: totalPages,
      [plural]: items.map((term) => termRecord(term, req)),
    };
    // Filters are not carried: the collection URL and the page only.
    if (page < totalPages) body.next_rest_url = nextUrl(restUrl, [], page);
    if (page > 1) body.previous_rest_url = previousUrl(restUrl, [], page);
    return ok(body, totalHeaders(total, totalPages));
  };

  const listArg = (description: string, spec: ArgSpec): ArgSpec => ({ description, ...spec, validate: listArgValid });
  const archiveArgs: Args = {
    page: pageArg,
    per_page: perPageArg(kind.whatPlural),
    search: listArg('Limit results to those matching a string', { type: 'string' }),
    exclude: listArg('Ensure result set exclude specific IDs', { swaggerType: 'array', items: { type: 'integer' } }),
    include: listArg('Limit result set to specific IDs', { swaggerType: 'array', items: { type: 'integer' } }),
    order: listArg('Order sort attribute ascending or descending', { type: 'string' }),
    orderby: listArg('Sort collection by term attribute', { type: 'string' }),
    hide_empty: { description: 'Whether to hide terms not assigned to any posts', type: 'boolean', default: '1' },
    ...(kind.hierarchical ? { parent: listArg('Limit result set to terms assigned to a specific parent', { type: 'integer' }) } : {}),
    post: listArg('Limit result set to terms assigned to a specific post', { type: 'integer' }),
    event: listArg('Limit result set to terms assigned to a specific event (an alias of the "post" parameter)', { type: 'integer' }),
    slug: listArg('Limit result set to terms with a specific slug', { type: 'string' }),
  };

  const an = `an ${what}`;
  const term = ref('Term');
  return [
    {
      path: `/${plural}`,
      endpoints: [
        {
          methods: READABLE,
          args: archiveArgs,
          handler: archive,
          doc: { responses: archiveResponses(plural, kind.whatPlural, 'Term', kind.doc.notFound) },
        },
        // Documented under /{plural}/{id} (post → 201), as in TEC.
        { methods: CREATABLE, args: createArgs, permission: canManage, handler: create },
      ],
    },
    {
      path: `/${plural}/(?P<id>\\d+)`,
      args: idArg,
      endpoints: [
        {
          methods: READABLE,
          handler: read,
          doc: {
            responses: {
              '200': response(`Returns the data of the ${what} with the specified term ID`, term),
              '400': response(`The ${what} term ID is missing.`),
              '404': response(`An ${what} with the specified term ID does not exist.`),
            },
          },
        },
        {
          methods: EDITABLE,
          args: updateArgs,
          permission: canManage,
          handler: update,
          doc: {
            parameters: ['id'],
            requestBody: { args: kind.doc.idInBody ? { ...idArg, ...createArgs } : createArgs },
            responses: {
              '200': response(`Returns the data of the updated ${what}`, term),
              '201': response(`Returns the data of the created ${what}`, term),
              '400': response('A required parameter is missing or an input parameter is in the wrong format'),
              '403': response(`The user is not authorized to create ${kind.whatPlural}`),
            },
          },
        },
        {
          methods: DELETABLE,
          permission: canManage,
          handler: remove,
          doc: {
            responses: {
              '200': response(`Deletes ${an} and returns its data`, term),
              '400': response(`The ${what} term ID is missing or does not exist.`),
              '403': response(`The current user cannot delete the ${what} with the specified term ID.`),
              '410': response(`The ${what} with the specified term ID has been deleted already.`),
              '500': response(`The ${what} with the specified term ID could not be deleted.`),
            },
          },
        },
      ],
    },
  ];
}

export const categoryRoutes: Route[] = termRoutes(TERMS.category);
export const tagRoutes: Route[] = termRoutes(TERMS.tag);
