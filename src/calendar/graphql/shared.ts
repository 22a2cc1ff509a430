// Types shared by the calendar's records: post status, date parts, cost details, images, masking.
import { builder, type AlmanacTypes } from '../../graphql/builder.js';
import { dateDetails } from '../dates/wall-times.js';
import { POST_STATUSES } from '../capabilities.js';
import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { readsColumns } from '../../graphql/selected-columns.js';
import { unlockOf } from '../../graphql/unlock.js';
import { isUnlocked } from '../events.js';
import { globalId } from '../posts.js';

export const PostStatus = builder.enumType('PostStatus', {
  description: 'Publication status of an event, venue or organizer (WordPress post statuses).',
  values: Object.fromEntries(
    POST_STATUSES.map((status) => [
      status.toUpperCase().replace('-', '_'),
      { value: status, description: `WordPress status "${status}".` },
    ]),
  ) as Record<string, { value: (typeof POST_STATUSES)[number]; description: string }>,
});

export const DateDetails = builder.objectRef<string>('DateDetails').implement({
  description: 'The parts of a "YYYY-MM-DD HH:MM:SS" wall time, as zero-padded strings.',
  fields: (t) => ({
    year: t.string({ description: 'Four-digit year.', resolve: (wall) => dateDetails(wall).year }),
    month: t.string({ description: 'Two-digit month.', resolve: (wall) => dateDetails(wall).month }),
    day: t.string({ description: 'Two-digit day.', resolve: (wall) => dateDetails(wall).day }),
    hour: t.string({ description: 'Two-digit hour (24h).', resolve: (wall) => dateDetails(wall).hour }),
    minutes: t.string({ description: 'Two-digit minutes.', resolve: (wall) => dateDetails(wall).minutes }),
    seconds: t.string({ description: 'Two-digit seconds.', resolve: (wall) => dateDetails(wall).seconds }),
  }),
});

export interface CostDetailsShape {
  currencySymbol: string;
  currencyCode: string;
  currencyPosition: string;
  values: string[];
}

export const CostDetails = builder.objectRef<CostDetailsShape>('CostDetails').implement({
  description: 'The stored cost, parsed.',
  fields: (t) => ({
    currencySymbol: t.exposeString('currencySymbol', { description: 'Currency symbol found in the cost ("" when none was stored).' }),
    currencyCode: t.exposeString('currencyCode', { description: 'ISO currency code ("" when none was stored).' }),
    currencyPosition: t.exposeString('currencyPosition', { description: '"prefix", "postfix" or "".' }),
    values: t.exposeStringList('values', { description: 'Every numeric component, as numeric strings, ascending.' }),
  }),
});

export const Image = builder.prismaObject('Attachment', {
  name: 'Image',
  description: 'A featured image from the media library.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The attachment id.' }),
    url: t.exposeString('url', { description: 'Full-size URL.' }),
    mimeType: t.exposeString('mimeType', { description: 'MIME type, e.g. image/jpeg.' }),
    width: t.exposeInt('width', { nullable: true, description: 'Width in pixels, when known.' }),
    height: t.exposeInt('height', { nullable: true, description: 'Height in pixels, when known.' }),
    filesize: t.exposeInt('filesize', { nullable: true, description: 'Size in bytes, when known.' }),
    sizes: t.field({
      type: 'JSON',
      description:
        'Its smaller copies by size name, as WordPress keeps them: {"thumbnail": {"width", "height", "mime-type", "url", "filesize"?}}; {} when none is known.',
      resolve: (attachment) => JSON.parse(attachment.sizes || '{}'),
    }),
  }),
});

/**
 * Whether a protected event, venue or organizer hides its private fields from this request (spec
 * §3.7). Most records have no password: they skip the walk up `info.path` to the unlock.
 */
export const isMasked = (
  post: { password: string; status: string; authorId: number },
  ctx: GraphQLContext,
  info: GraphQLResolveInfo,
): boolean => post.password !== '' && !isUnlocked(post, ctx.viewer, unlockOf(ctx, info));

type MaskableRow = { password: string; status: string; authorId: number };
/** The columns of a row whose values are of type V. */
type ColumnOf<Row, V> = { [K in keyof Row]: Row[K] extends V ? K : never }[keyof Row] & string;
/** A post model's field builder: an event's, a venue's or an organizer's. */
type PostFields<Row> = PothosSchemaTypes.RootFieldBuilder<AlmanacTypes, Row, 'PrismaObject'>;

/** A text column that reads "" while the record is masked, as stored or through `render`; `t` is
 *  the field builder of an event, venue or organizer. */
export function maskedText<Row extends MaskableRow>(
  t: PostFields<Row>,
  column: ColumnOf<Row, string>,
  description: string,
  render: (text: string) => string = (text) => text,
) {
  return t.string({
    description: `${description} ("" when masked).`,
    extensions: readsColumns(column),
    resolve: (row, _a, ctx, info) => (isMasked(row, ctx, info) ? '' : render(row[column] as string)),
  });
}

/** A flag column that reads null while the record is masked; `whenUnset`: the value of a null one. */
export function maskedFlag<Row extends MaskableRow>(
  t: PostFields<Row>,
  column: ColumnOf<Row, boolean | null>,
  description: string,
  whenUnset: boolean | null = null,
) {
  return t.boolean({
    nullable: true,
    description: `${description} (null when masked).`,
    extensions: readsColumns(column),
    resolve: (row, _a, ctx, info) => (isMasked(row, ctx, info) ? null : ((row[column] as boolean | null) ?? whenUnset)),
  });
}

/** A post's global ids (the site host and path, then ?id=), as the REST records carry them. */
export const globalIdFields = <Row extends { id: number }>(t: PostFields<Row>) => ({
  globalId: t.string({
    description: 'Global id: the site host and path, then ?id=.',
    extensions: readsColumns(),
    resolve: (row, _a, ctx) => globalId(ctx.config.siteUrl, row.id),
  }),
  globalIdLineage: t.stringList({
    description: 'The global id, then any ids it was imported from.',
    extensions: readsColumns(),
    resolve: (row, _a, ctx) => [globalId(ctx.config.siteUrl, row.id)],
  }),
});
