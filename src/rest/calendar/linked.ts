// Venues and organizers (spec §2.5, §2.6, §3.2, §3.3): the archive, create, and read/update/delete by
// id and by slug, translated onto the GraphQL venue/organizer API. One definition generates both,
// as defineLinkedApi does on the GraphQL side; the two differ only in the data of LINKED below.
//
// Order of checks (spec §0.3): TEC's validators (those that need data ask GraphQL: does the id or
// slug name a record, do the list filters hold) → permission (the original's capabilities, which
// also give the Allow header) → the GraphQL operation, whose own checks (author, image) and
// handler errors (410 *-is-in-trash …) come last.
import {
  canCreatePosts,
  canDeleteAny,
  canDeletePost,
  canEditAny,
  canEditPost,
  canUploadFiles,
  isPostStatus,
} from '../../calendar/capabilities.js';
import { isNonEmptyString, isStringOrEmpty, validateValueFromSchema } from '../args.js';
import { phpEmpty, phpIntval, phpIsNumeric, phpStrval } from '../../php/casts.js';
import { listToArray, tribeIsTruthy } from '../../php/tribe.js';
import { RestError } from '../errors.js';
import {
  CREATABLE,
  DELETABLE,
  EDITABLE,
  READABLE,
  created,
  ok,
  type ArgSpec,
  type Args,
  type Endpoint,
  type RestRequest,
  type Route,
} from '../route-table.js';
import {
  archiveResponses,
  editArgs,
  gqlInt,
  invalidArgs,
  isInvalidParam,
  memo,
  nextUrl,
  pageArg,
  pageVariables,
  perPageArg,
  postRights,
  previousUrl,
  isTime,
  isUrlOrPhpEmpty,
  queryUrl,
  response,
  totalHeaders,
  unwrap,
  wpStatus,
  type Outcome,
  type WriteArg,
} from './common.js';
import { graphqlArgName, run } from './errors.js';
import { buildRecord, ref, type ItemSchema, type ResultObject } from './item-schema.js';
import { ORGANIZER, VENUE } from './records.js';

type Validate = NonNullable<ArgSpec['validate']>;

// ---------------------------------------------------------------------------------------------
// TEC's validators of the create/update args (tribe-common Validator/Base). The ones that need the
// database (is_user_id's user, is_image's attachment or URL) are finished by the GraphQL mutation.

const isUserId: Validate = (v) => phpIsNumeric(v) && (gqlInt(phpIntval(v)) ?? 0) > 0;
const isImageOrEmpty: Validate = (v, req) => phpEmpty(v) || phpIsNumeric(v) || (typeof v === 'string' && canUploadFiles(req.viewer));
const isStatus: Validate = (v) => isPostStatus(v);

/** `{type, [default: null], description}`, the key order TEC declares (the index shows it). */
function field(type: 'string' | 'integer', description: string, validate: Validate, nullDefault: boolean): ArgSpec {
  return nullDefault ? { type, default: null, description, validate } : { type, description, validate };
}

/**
 * Venue show_map/show_map_link are string args in the original (JSON booleans → 400, sample 04a).
 * Almanac decision 9: JSON booleans are accepted too; anything else is still the type error.
 */
const mapFlag = (description: string): WriteArg => ({
  type: 'string',
  default: null,
  description,
  sanitize: (value, _req, name) => {
    if (typeof value === 'boolean') return value;
    const valid = validateValueFromSchema(value, { type: 'string' }, name);
    return valid === true ? value : valid;
  },
  toInput: tribeIsTruthy,
});

/** The create args of both types (TEC Single_Venue / Single_Organizer CREATE_args), in TEC's order. */
function createArgs(type: 'venue' | 'organizer', nullDefaults: boolean, meta: Args): Record<string, WriteArg> {
  const text = (description: string, validate: Validate, nullDefault = nullDefaults) => field('string', description, validate, nullDefault);
  return {
    author: { ...field('integer', `The ${type} author ID`, isUserId, nullDefaults), toInput: gqlInt },
    date: text(`The ${type} publication date`, isTime),
    date_utc: text(`The ${type} publication date (UTC time zone)`, isTime),
    [type]: { ...text(`The ${type} name`, isNonEmptyString), required: true },
    description: text(`The ${type} description`, isStringOrEmpty, true),
    status: text(`The ${type} post status`, isStatus),
    ...meta,
    image: text('The organizer featured image ID or URL', isImageOrEmpty, true), // sic: venues say "organizer" too
  };
}

const metaField = (what: string, validate: Validate = isStringOrEmpty): ArgSpec => field('string', what, validate, true);

const VENUE_CREATE = createArgs('venue', false, {
  show_map: mapFlag('Whether events linked to the venue should show a map or not'),
  show_map_link: mapFlag('Whether events linked to the venue should show a map link or not'),
  address: metaField('The venue address'),
  city: metaField('The venue city'),
  country: metaField('The venue country'),
  province: metaField('The venue province'),
  state: metaField('The venue state'),
  zip: metaField('The venue ZIP code'),
  phone: metaField('The venue phone number'),
  stateprovince: metaField('The venue state and province'),
  website: metaField('The venue website URL', isUrlOrPhpEmpty),
});

const ORGANIZER_CREATE = createArgs('organizer', true, {
  phone: metaField('The organizer phone number'),
  website: metaField('The organizer website', isUrlOrPhpEmpty),
  email: metaField('The organizer e-mail address'),
});

// ---------------------------------------------------------------------------------------------
// The two types

interface LinkedKind {
  type: 'venue' | 'organizer';
  plural: 'venues' | 'organizers';
  typeName: 'Venue' | 'Organizer';
  /** The record's item schema: its GraphQL selections and its builder. */
  item: ItemSchema;
  createArgs: Record<string, WriteArg>;
  /** Quirks of the original's /doc: organizers document their path arg as a body field, have no
   *  200 update response, and a 404 text about "the specified event". */
  doc: { targetInBody: boolean; updateResponse: boolean; notFound: string };
}

const LINKED: Record<'venue' | 'organizer', LinkedKind> = {
  venue: {
    type: 'venue',
    plural: 'venues',
    typeName: 'Venue',
    item: VENUE,
    createArgs: VENUE_CREATE,
    doc: { targetInBody: false, updateResponse: true, notFound: 'A venue with the specified post ID does not exist.' },
  },
  organizer: {
    type: 'organizer',
    plural: 'organizers',
    typeName: 'Organizer',
    item: ORGANIZER,
    createArgs: ORGANIZER_CREATE,
    doc: { targetInBody: true, updateResponse: false, notFound: 'An organizer with the specified event does not exist.' },
  },
};

/** TEC's list_to_array of a status list, as strings (undefined when it holds non-scalars). */
function statusList(raw: unknown): string[] | undefined {
  const statuses = listToArray(raw);
  return statuses.every((s) => typeof s === 'string' || typeof s === 'number') ? statuses.map(String) : undefined;
}

/** The archive's filters: REST arg → [GraphQL filter field, its value from the raw one (undefined: unusable)]. */
const FILTERS: Record<string, [string, (raw: unknown) => unknown]> = {
  search: ['search', (raw) => (isNonEmptyString(raw) ? raw : undefined)], // TEC's is_string: not PHP-empty ("0")
  event: ['event', (raw) => (phpEmpty(raw) ? undefined : gqlInt(phpIntval(raw)))], // is_event_id casts with (int)
  has_events: ['hasEvents', tribeIsTruthy],
  only_with_upcoming: ['onlyWithUpcoming', tribeIsTruthy],
  status: ['status', statusList],
};

/** The GraphQL input of a create/update: the args the request carries (nulls are "not given"). */
function linkedInput(kind: LinkedKind, params: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, { toInput }] of Object.entries(kind.createArgs)) {
    const value = params[name];
    if (value === undefined || value === null) continue;
    input[graphqlArgName(name, kind.type)] = toInput ? toInput(value) : phpStrval(value);
  }
  return input;
}

function linkedRoutes(kind: LinkedKind): Route[] {
  const { type, plural, typeName, item } = kind;
  const [fields, singleFields] = item.selections;
  const record = (node: ResultObject, req: RestRequest) => buildRecord(item, node, req);
  const Plural = plural[0].toUpperCase() + plural.slice(1);
  const target = `$id: Int, $slug: String`;
  const ops = {
    read: `query(${target}, $password: String, $editContext: Boolean) { node: ${type}(id: $id, slug: $slug, password: $password, editContext: $editContext) { ${singleFields} } }`,
    probe: `query(${target}) { node: ${type}(id: $id, slug: $slug) { id status author } }`,
    list: `query($filter: ${typeName}Filter, $page: PageInput, $password: String, $editContext: Boolean) {
      page: ${plural}(filter: $filter, page: $page, password: $password, editContext: $editContext) { items { ${fields} } total totalPages statuses } }`,
    create: `mutation($input: Create${typeName}Input!) { node: create${typeName}(input: $input) { ${fields} } }`,
    update: `mutation(${target}, $input: Update${typeName}Input!) { node: update${typeName}(id: $id, slug: $slug, input: $input) { ${fields} } }`,
    remove: `mutation(${target}) { node: delete${typeName}(id: $id, slug: $slug) { ${fields} } }`,
  };

  // --- one record, by id or slug ---------------------------------------------------------------

  /** The record the path names (a body id/slug shadows the path's, as in WordPress); null if it cannot be one. */
  const targetOf = (req: RestRequest): { id: number } | { slug: string } | null => {
    if (Object.hasOwn(req.route.args ?? {}, 'id')) {
      const id = gqlInt(req.raw.id);
      return id !== undefined && id > 0 ? { id } : null;
    }
    return typeof req.raw.slug === 'string' && req.raw.slug !== '' ? { slug: req.raw.slug } : null;
  };

  /**
   * The record, loaded once per request: in full for a read, its status and author otherwise; null
   * when there is no such record (GraphQL's INVALID_INPUT on id/slug). Other errors (e.g. 403
   * *-not-accessible) are kept for the handler.
   */
  const load = (req: RestRequest): Promise<Outcome<ResultObject | null>> =>
    memo(req, 'linked:record', async () => {
      const where = targetOf(req);
      if (!where) return null;
      const full = req.method === 'GET' || req.method === 'HEAD';
      const unlock = full
        ? { password: typeof req.raw.password === 'string' ? req.raw.password : undefined, editContext: req.raw.context === 'edit' }
        : {};
      try {
        return (await run(req, type, full ? ops.read : ops.probe, { ...where, ...unlock })).node;
      } catch (error) {
        if (isInvalidParam(error)) return null;
        throw error;
      }
    });

  /** is_venue_id / is_venue_slug (…organizer): an existing record of the type, in any status. */
  const exists: Validate = async (_value, req) => (await load(req)).data !== null;

  /**
   * edit_post / delete_post on the record; for an id of another post type (an event's on /venues),
   * WordPress's answer on that post, which the Allow header of the 400 refusal shows; false when no
   * post has the id or the record cannot be read.
   */
  const onRecord = (rule: typeof canEditPost, right: 'edit' | 'delete') => async (req: RestRequest) => {
    const { data, error } = await load(req);
    if (data != null) return rule(req.viewer, { status: wpStatus(data.status), authorId: data.author });
    const id = gqlInt(req.raw.id);
    if (error !== undefined || id === undefined || id <= 0) return false;
    return (await postRights(req, id))?.[right] ?? false;
  };

  const read = async (req: RestRequest) => ok(record(unwrap(await load(req))!, req));
  const update = async (req: RestRequest) => {
    const { node } = await run(req, type, ops.update, { ...targetOf(req), input: linkedInput(kind, req.params) });
    return ok(record(node, req));
  };
  const remove = async (req: RestRequest) => ok(record((await run(req, type, ops.remove, targetOf(req)!)).node, req));

  const updateArgs = editArgs(kind.createArgs);

  const what = type === 'venue' ? 'a venue' : 'an organizer';
  const single = (path: string, arg: 'id' | 'slug', anyRecord: boolean): Route => {
    const targetArg: Args = {
      [arg]: {
        in: 'path',
        type: arg === 'id' ? 'integer' : 'string',
        description: `the ${type} post ${arg === 'id' ? 'ID' : 'name'}`,
        required: true,
        validate: exists,
      },
    };
    const postResponses: Record<string, unknown> = {};
    if (kind.doc.updateResponse) postResponses['200'] = response(`Returns the data of the updated ${type}`, ref(typeName));
    Object.assign(postResponses, {
      '201': response(`Returns the data of the created ${type}`, ref(typeName)),
      '400': response('A required parameter is missing or an input parameter is in the wrong format'),
      '403': response(`The user is not authorized to create ${plural}`),
    });
    const endpoints: Endpoint[] = [
      {
        methods: READABLE,
        handler: read,
        doc: {
          responses: {
            '200': response(`Returns the data of the ${type} with the specified post ID`, ref(typeName)),
            '400': response(`The ${type} post ID is missing.`),
            '403': response(`The ${type} with the specified ID is not accessible.`),
            '404': response(kind.doc.notFound),
          },
        },
      },
      {
        methods: DELETABLE,
        // Slug routes only check the general capability (spec §2.6, quirk 10).
        permission: anyRecord ? (req) => canDeleteAny(req.viewer) : onRecord(canDeletePost, 'delete'),
        handler: remove,
        doc: {
          responses: {
            '200': response(`Deletes ${what} and returns its data`, ref(typeName)),
            '400': response(`The ${type} post ID is missing or does not exist.`),
            '403': response(`The current user cannot delete the ${type} with the specified ID.`),
            '410': response(`The ${type} with the specified ID has been deleted already.`),
            '500': response(`The ${type} with the specified ID could not be deleted.`),
          },
        },
      },
      {
        methods: EDITABLE,
        args: updateArgs,
        permission: anyRecord ? (req) => canEditAny(req.viewer) : onRecord(canEditPost, 'edit'),
        handler: update,
        doc: {
          parameters: [arg],
          requestBody: { args: kind.doc.targetInBody ? { ...targetArg, ...kind.createArgs } : kind.createArgs },
          responses: postResponses,
        },
      },
    ];
    return { path, args: targetArg, endpoints };
  };

  // --- the archive -----------------------------------------------------------------------------

  /** The GraphQL filter of the request's raw args; `bad` names the values it could not take. */
  const archiveFilter = (req: RestRequest) => {
    const raw = req.raw;
    const filter: Record<string, unknown> = {};
    const bad = new Set<string>();
    for (const [name, [key, convert]] of Object.entries(FILTERS)) {
      if (raw[name] == null) continue;
      const value = convert(raw[name]);
      if (value === undefined) bad.add(name);
      else filter[key] = value;
    }
    if (filter.onlyWithUpcoming) {
      // The original looks at one page of upcoming events (the site's posts per page), not at all of them.
      delete filter.onlyWithUpcoming;
      filter.linkedToNextEvents = req.config.postsPerPage;
    }
    return { filter, bad };
  };

  const fetchPage = (req: RestRequest, filter: Record<string, unknown>) =>
    run(req, type, ops.list, {
      filter,
      page: pageVariables(req.raw),
      password: typeof req.raw.password === 'string' ? req.raw.password : undefined,
      editContext: req.raw.context === 'edit',
    }).then((data) => data.page as { items: ResultObject[]; total: number; totalPages: number; statuses: string[] });

  /** The list, fetched once: the validators of search/event/status read its INVALID_INPUT, the handler its page. */
  const listing = (req: RestRequest) => memo(req, 'linked:list', () => fetchPage(req, archiveFilter(req).filter));

  /** A filter arg GraphQL validates (search, event, status: TEC's is_string, is_event_id, filter_post_status_list). */
  const listFilterValid: Validate = async (_value, req, name) =>
    !archiveFilter(req).bad.has(name) && !invalidArgs(await listing(req)).has(name);

  const archive = async (req: RestRequest) => {
    let result = unwrap(await listing(req));
    const { page, per_page: perPage } = req.params as { page: number; per_page: number };
    if (req.params.search != null && result.total === 0) {
      // Quirk 8 (faithful): a search that matches nothing lists nothing, but totals and next page
      // are those of the list without the search.
      const { search: _search, ...filter } = archiveFilter(req).filter;
      result = { ...(await fetchPage(req, filter)), items: [] };
    }
    if (!result.items.length && page > 1) {
      throw new RestError(`${type}-archive-page-not-found`, `The requested ${type} archive page does not exist`, 404);
    }
    const status =
      req.params.status != null
        ? listToArray(req.params.status).map(phpStrval).join(',')
        : result.statuses.join() === 'publish'
          ? 'publish'
          : 'any';
    const base = req.url(`/${plural}/`);
    const query: Array<[string, unknown]> = [
      ['per_page', perPage],
      ['event', req.params.event],
      ['has_events', req.params.has_events],
      ['status', status],
    ];
    const body: Record<string, unknown> = {
      [plural]: result.items.map((node: ResultObject) => record(node, req)),
      rest_url: queryUrl(base, [['page', page], ...query]),
    };
    if (result.total > page * perPage) body.next_rest_url = nextUrl(base, query, page);
    if (page > 1) body.previous_rest_url = previousUrl(base, query, page);
    body.total = result.total;
    body.total_pages = result.totalPages;
    return ok(body, totalHeaders(result.total, result.totalPages));
  };

  const archiveArgs: Args = {
    page: pageArg,
    per_page: perPageArg(plural),
    search: {
      description: `${Plural} should contain the specified string in the title, description or custom fields`,
      type: 'string',
      validate: listFilterValid,
    },
    event: { description: `${Plural} should be related to this event`, type: 'integer', validate: listFilterValid },
    has_events: { description: `${Plural} should have events associated to them`, swaggerType: 'boolean' },
    only_with_upcoming: { description: `${Plural} should have upcoming events associated to them`, swaggerType: 'boolean', default: false },
    status: { swaggerType: 'string', format: 'string', description: 'The organizer post status', validate: listFilterValid }, // sic for venues
  };

  const createOne = async (req: RestRequest) =>
    created(record((await run(req, type, ops.create, { input: linkedInput(kind, req.params) })).node, req));

  return [
    {
      path: `/${plural}`,
      endpoints: [
        { methods: READABLE, args: archiveArgs, handler: archive, doc: { responses: archiveResponses(plural, plural, typeName) } },
        // Documented under /{plural}/{id} (post → 201), as in TEC.
        { methods: CREATABLE, args: kind.createArgs, permission: (req) => canCreatePosts(req.viewer), handler: createOne },
      ],
    },
    single(`/${plural}/(?P<id>\\d+)`, 'id', false),
    single(`/${plural}/by-slug/(?P<slug>[^/]+)`, 'slug', true),
  ];
}

export const venueRoutes: Route[] = linkedRoutes(LINKED.venue);
export const organizerRoutes: Route[] = linkedRoutes(LINKED.organizer);
