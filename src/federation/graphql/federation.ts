// The federation for administrators: whether it is on, the calendar's handle, its followers and
// the recent deliveries with their failures; and removing a follower. The model is in
// src/federation/followers.ts (which checks that the caller is an administrator).
import { builder } from '../../graphql/builder.js';
import { invalidInput } from '../../calendar/errors.js';
import { federationOverview, listDeliveries, listFollowers, removeFollower } from '../followers.js';

type FollowerRow = Awaited<ReturnType<typeof listFollowers>>['items'][number];
type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];

const MAX_ITEMS = 200;

function checkFirst(first: number | null | undefined, fallback: number): number {
  const value = first ?? fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_ITEMS)
    throw invalidInput({ first: `must be an integer from 1 to ${MAX_ITEMS}` });
  return value;
}

const FederationFollower = builder.objectRef<FollowerRow>('FederationFollower').implement({
  description: 'A fediverse account that follows the calendar.',
  fields: (t) => ({
    actorId: t.exposeString('actorId', { description: "The follower's actor id (URI)." }),
    handle: t.exposeString('handle', { description: '@name@server when known, else the actor id.' }),
    inbox: t.exposeString('inbox', { description: 'Its inbox.' }),
    sharedInbox: t.exposeString('sharedInbox', {
      nullable: true,
      description: "Its server's shared inbox, where deliveries go when there is one.",
    }),
    createdAt: t.string({ description: 'When its Follow was accepted (ISO 8601).', resolve: (row) => row.createdAt.toISOString() }),
  }),
});

const FederationFollowers = builder.objectRef<Awaited<ReturnType<typeof listFollowers>>>('FederationFollowers').implement({
  description: 'How many follow the calendar, and the latest of them.',
  fields: (t) => ({
    count: t.exposeInt('count', { description: 'How many follow it.' }),
    items: t.field({ type: [FederationFollower], description: 'The followers, newest first.', resolve: (row) => row.items }),
  }),
});

const FederationDelivery = builder.objectRef<DeliveryRow>('FederationDelivery').implement({
  description: 'One activity sent (or to send) to one inbox, and how it went.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The delivery id.' }),
    activityId: t.exposeString('activityId', { description: "The activity's id." }),
    activityType: t.exposeString('activityType', { description: 'Create, Update, Delete or Accept.' }),
    eventId: t.int({ nullable: true, description: 'The event it is about (null for an Accept).', resolve: (row) => row.eventId || null }),
    inbox: t.exposeString('inbox', { description: 'Where it goes.' }),
    status: t.exposeString('status', {
      description: 'pending, delivered, or failed (given up after the last retry, or its inbox kept failing, or the follower was removed).',
    }),
    attempts: t.exposeInt('attempts', { description: 'POSTs made so far.' }),
    lastStatus: t.exposeInt('lastStatus', { nullable: true, description: "The inbox's last HTTP status (null: no answer)." }),
    lastError: t.exposeString('lastError', { description: 'Why the last attempt failed ("" when it did not).' }),
    nextAttemptAt: t.string({
      description: 'When it is tried next, while pending (ISO 8601).',
      resolve: (row) => row.nextAttemptAt.toISOString(),
    }),
    createdAt: t.string({ description: 'When it was queued (ISO 8601).', resolve: (row) => row.createdAt.toISOString() }),
    deliveredAt: t.string({
      nullable: true,
      description: 'When the inbox answered 2xx.',
      resolve: (row) => row.deliveredAt?.toISOString() ?? null,
    }),
  }),
});

const Federation = builder.objectRef<ReturnType<typeof federationOverview>>('Federation').implement({
  description: 'The calendar on the fediverse (ActivityPub): its handle, followers and deliveries. Administrators only.',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'Whether federation is on (FEDERATION, and SITE_URL names the public address).' }),
    handle: t.exposeString('handle', { description: 'What to search for on Mastodon to follow the calendar: @name@host.' }),
    actorId: t.exposeString('actorId', { description: "The calendar actor's id (URI)." }),
    followers: t.field({
      type: FederationFollowers,
      description: `Its followers (at most \`first\`, 1–${MAX_ITEMS}).`,
      args: { first: t.arg.int({ defaultValue: 50, description: `How many, 1 to ${MAX_ITEMS}.` }) },
      resolve: (_row, args, ctx) => listFollowers(ctx.prisma, ctx.viewer, checkFirst(args.first, 50)),
    }),
    deliveries: t.field({
      type: [FederationDelivery],
      description: `The latest deliveries, newest first (at most \`first\`, 1–${MAX_ITEMS}); only the failed ones with \`failed\`.`,
      args: {
        first: t.arg.int({ defaultValue: 50, description: `How many, 1 to ${MAX_ITEMS}.` }),
        failed: t.arg.boolean({ defaultValue: false, description: 'Only those that failed.' }),
      },
      resolve: (_row, args, ctx) => listDeliveries(ctx.prisma, ctx.viewer, checkFirst(args.first, 50), args.failed ?? false),
    }),
  }),
});

const ERRORS = 'Errors: UNAUTHENTICATED, FORBIDDEN (administrators only)';

builder.queryFields((t) => ({
  federation: t.field({
    type: Federation,
    description: `The calendar on the fediverse. ${ERRORS}.`,
    resolve: (_root, _args, ctx) => federationOverview(ctx.viewer, ctx.config),
  }),
}));

builder.mutationFields((t) => ({
  removeFederationFollower: t.field({
    type: FederationFollower,
    description: `Removes a follower: it receives nothing more. ${ERRORS}, NOT_FOUND.`,
    args: { actorId: t.arg.string({ required: true, description: "The follower's actor id." }) },
    resolve: (_root, args, ctx) => removeFollower(ctx.prisma, ctx.viewer, args.actorId),
  }),
}));
