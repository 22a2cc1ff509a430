// Calendar webhooks (administrators): endpoints that receive the change log in signed POSTs, their
// delivery log, pause, resume and replay. The delivery model is in src/calendar/webhooks.ts.
import { builder } from '../../graphql/builder.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  replayWebhook,
  updateWebhook,
  webhookDeliveries,
  webhookTypes,
  type WebhookInput,
} from '../webhooks.js';
import { invalidInput } from '../errors.js';
import { CalendarRecordType } from './changes.js';

type WebhookRow = Awaited<ReturnType<typeof listWebhooks>>[number];
type DeliveryRow = Awaited<ReturnType<typeof webhookDeliveries>>[number];

const MAX_DELIVERIES = 100;

const CalendarWebhookDelivery = builder.objectRef<DeliveryRow>('CalendarWebhookDelivery').implement({
  description: 'One POST of changes to a calendar webhook, and how it went.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Sent as X-Almanac-Delivery and `deliveryId`.' }),
    cursor: t.exposeString('cursor', { description: 'The cursor of its last change.' }),
    changeCount: t.exposeInt('changeCount', { description: 'How many changes it carries.' }),
    status: t.exposeString('status', {
      description: 'pending, delivered, failed (given up after the last retry) or cancelled (the webhook was replayed).',
    }),
    attempts: t.exposeInt('attempts', { description: 'POSTs made so far.' }),
    lastStatus: t.exposeInt('lastStatus', { nullable: true, description: "The receiver's last HTTP status (null: no answer)." }),
    lastError: t.exposeString('lastError', { description: 'Why the last attempt failed ("" when it did not).' }),
    createdAt: t.string({ description: 'When it was queued (ISO 8601).', resolve: (row) => row.createdAt.toISOString() }),
    deliveredAt: t.string({
      nullable: true,
      description: 'When it was answered 2xx.',
      resolve: (row) => row.deliveredAt?.toISOString() ?? null,
    }),
  }),
});

const CalendarWebhook = builder.objectRef<WebhookRow & { revealSecret?: boolean }>('CalendarWebhook').implement({
  description:
    'An endpoint that receives the calendar\'s changes (beside the task webhooks): POSTs with header X-Almanac-Event: calendar.changes and a JSON body {webhookId, deliveryId, cursor, changes}, the changes as calendarChanges gives them to the administrator who registered it. Signed like the task webhooks: X-Almanac-Signature is sha256=HMAC-SHA256(secret, "<X-Almanac-Timestamp>.<body>"). One delivery at a time, in order, each retried with backoff until answered 2xx; one that fails after every retry pauses the webhook.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The webhook id.' }),
    url: t.exposeString('url', { description: 'Where changes are POSTed.' }),
    types: t.field({
      type: [CalendarRecordType],
      description: 'The record types it follows (empty: all).',
      resolve: (row) => webhookTypes(row.types) ?? [],
    }),
    secret: t.string({
      nullable: true,
      description: 'The signing secret: given once, in the answer of createCalendarWebhook; null afterwards.',
      resolve: (row) => (row.revealSecret ? row.secret : null),
    }),
    cursor: t.exposeString('cursor', { description: 'The changes up to this cursor are queued.' }),
    paused: t.exposeBoolean('paused', { description: 'Paused: nothing is sent until resumed (updateCalendarWebhook) or replayed.' }),
    lastError: t.exposeString('lastError', { description: 'Why it was paused by Almanac ("" otherwise).' }),
    createdAt: t.string({ description: 'When it was registered (ISO 8601).', resolve: (row) => row.createdAt.toISOString() }),
    deliveries: t.field({
      type: [CalendarWebhookDelivery],
      description: `Its deliveries, newest first (at most \`first\`, 1–${MAX_DELIVERIES}).`,
      args: { first: t.arg.int({ defaultValue: 20, description: `How many, 1 to ${MAX_DELIVERIES}.` }) },
      resolve: (row, args, ctx) => {
        const first = args.first ?? 20;
        if (!Number.isInteger(first) || first < 1 || first > MAX_DELIVERIES)
          throw invalidInput({ first: `must be an integer from 1 to ${MAX_DELIVERIES}` });
        return webhookDeliveries(ctx.prisma, row.id, first);
      },
    }),
  }),
});

const CalendarWebhookInput = builder.inputType('CalendarWebhookInput', {
  description: 'A calendar webhook: omitted fields keep their value on update.',
  fields: (t) => ({
    url: t.string({ description: 'An http(s) URL the outbound URL policy allows.' }),
    types: t.field({ type: [CalendarRecordType], description: 'The record types to follow (empty or omitted: all).' }),
    paused: t.boolean({ description: 'Pause (true) or resume (false) it.' }),
  }),
});

const ERRORS = 'Errors: UNAUTHENTICATED, FORBIDDEN (administrators only), INVALID_INPUT (params per field)';

builder.queryFields((t) => ({
  calendarWebhooks: t.field({
    type: [CalendarWebhook],
    description: `The calendar webhooks, oldest first. ${ERRORS}.`,
    resolve: (_root, _args, ctx) => listWebhooks(ctx.prisma, ctx.viewer),
  }),
}));

builder.mutationFields((t) => ({
  createCalendarWebhook: t.field({
    type: CalendarWebhook,
    description: `Registers an endpoint for the calendar's changes after \`after\` (default: from now). The answer holds its signing secret, shown only here. ${ERRORS}.`,
    args: {
      input: t.arg({ type: CalendarWebhookInput, required: true, description: 'Its URL (required) and types.' }),
      after: t.arg.string({ description: 'A change log cursor to start after.' }),
    },
    resolve: async (_root, args, ctx) => ({
      ...(await createWebhook(ctx.prisma, ctx.config, ctx.viewer, { ...(args.input as WebhookInput), after: args.after })),
      revealSecret: true,
    }),
  }),
  updateCalendarWebhook: t.field({
    type: CalendarWebhook,
    description: `Changes a webhook's URL or types, pauses or resumes it. ${ERRORS}, NOT_FOUND.`,
    args: {
      id: t.arg.string({ required: true, description: 'The webhook id.' }),
      input: t.arg({ type: CalendarWebhookInput, required: true, description: 'What to change.' }),
    },
    resolve: (_root, args, ctx) => updateWebhook(ctx.prisma, ctx.config, ctx.viewer, args.id, args.input as WebhookInput),
  }),
  replayCalendarWebhook: t.field({
    type: CalendarWebhook,
    description: `Sends the changes after \`after\` again (or skips ahead): its pending deliveries are cancelled, and it is resumed. ${ERRORS}, NOT_FOUND, CURSOR_EXPIRED.`,
    args: {
      id: t.arg.string({ required: true, description: 'The webhook id.' }),
      after: t.arg.string({ required: true, description: 'A change log cursor.' }),
    },
    resolve: (_root, args, ctx) => replayWebhook(ctx.prisma, ctx.viewer, args.id, args.after),
  }),
  deleteCalendarWebhook: t.field({
    type: CalendarWebhook,
    description: `Removes a webhook and its delivery log; returns it as it was. ${ERRORS}, NOT_FOUND.`,
    args: { id: t.arg.string({ required: true, description: 'The webhook id.' }) },
    resolve: (_root, args, ctx) => deleteWebhook(ctx.prisma, ctx.viewer, args.id),
  }),
}));
