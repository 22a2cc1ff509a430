// API keys in GraphQL: the ApiKey type with its queries and mutations. A user manages their own
// keys; an administrator anyone's (`userId`). The key itself appears once, in the answer that made it.
import { builder } from '../../graphql/builder.js';
import { requireViewer, type GraphQLContext } from '../../graphql/context.js';
import { AppError, translateDomainErrors } from '../../graphql/errors.js';
import {
  createKey,
  getKey,
  KeyError,
  listKeys,
  MAX_LABEL,
  revokeKey,
  rotateKey,
  setKeyWebhookUrl,
  type ApiKeyRecord,
} from '../key-management.js';
import type { Viewer } from '../viewer.js';

const ApiKey = builder.objectRef<ApiKeyRecord>('ApiKey').implement({
  description: 'An API key, without its secret: only its first characters, label and dates.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The key id.' }),
    userId: t.exposeInt('userId', { description: 'The user the key acts as.' }),
    login: t.exposeString('login', { description: "That user's login." }),
    prefix: t.exposeString('prefix', { description: 'The first 8 characters of the key, to tell keys apart.' }),
    label: t.exposeString('label', { description: 'What the key is for, as given.' }),
    webhookUrl: t.string({
      nullable: true,
      description:
        "The default webhook URL: tasks created with this key without a webhookUrl of their own send their run events there, signed with the key's webhookSecret (setApiKeyWebhookUrl). Null: none.",
      resolve: (key) => key.defaultWebhookUrl,
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When the key was made.', resolve: (key) => key.createdAt }),
    lastUsedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When a request last used the key, to the minute (null: never).',
      resolve: (key) => key.lastUsedAt,
    }),
    revokedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the key was revoked (null: it works).',
      resolve: (key) => key.revokedAt,
    }),
  }),
});

const NewApiKey = builder.objectRef<{ key: string; record: ApiKeyRecord }>('NewApiKey').implement({
  description: 'A key just made: the secret is shown here once and never again.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The API key itself (send it as x-api-key). Store it now.' }),
    apiKey: t.field({ type: ApiKey, description: 'The stored record of the key.', resolve: (made) => made.record }),
  }),
});

const caller = (ctx: GraphQLContext): Viewer => requireViewer(ctx, 'Managing API keys needs an API key');

const KEY_CODES = {
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  invalid: 'INVALID_INPUT',
} as const;
translateDomainErrors(KeyError, (error) => ({
  code: KEY_CODES[error.code],
  extensions: error.code === 'invalid' ? { params: { [String(error.details.field ?? 'label')]: error.message } } : {},
}));

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: [ApiKey],
    description:
      "The caller's API keys, newest first, revoked ones included; administrators may name another user. Errors: UNAUTHENTICATED, FORBIDDEN.",
    args: { userId: t.arg.int({ description: 'Whose keys (default: the caller). Administrators only, for someone else.' }) },
    resolve: (_root, args, ctx) => listKeys(ctx.prisma, caller(ctx), args.userId ?? undefined),
  }),
  apiKey: t.field({
    type: ApiKey,
    description:
      "One of the caller's API keys (administrators: anyone's); without `id`, the key this request is made with. Errors: UNAUTHENTICATED, NOT_FOUND.",
    args: { id: t.arg.int({ description: 'The key id (default: the key of this request).' }) },
    resolve: (_root, args, ctx) => {
      const viewer = caller(ctx);
      const id = args.id ?? viewer.keyId;
      if (id === undefined) throw new AppError('NOT_FOUND', 'This request was not made with an API key; name one (id).');
      return getKey(ctx.prisma, viewer, id);
    },
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: NewApiKey,
    description:
      'Makes a new key for the caller (administrators: for any user). Errors: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND (no such user), INVALID_INPUT.',
    args: {
      label: t.arg.string({ description: `What the key is for (at most ${MAX_LABEL} characters).` }),
      userId: t.arg.int({ description: 'For whom (default: the caller). Administrators only, for someone else.' }),
    },
    resolve: (_root, args, ctx) => createKey(ctx.prisma, caller(ctx), { userId: args.userId ?? undefined, label: args.label ?? undefined }),
  }),
  rotateApiKey: t.field({
    type: NewApiKey,
    description:
      'Replaces a key: a new one with the same owner and label, the old one revoked at once. Errors: UNAUTHENTICATED, NOT_FOUND, CONFLICT (already revoked).',
    args: { id: t.arg.int({ required: true, description: 'The key id.' }) },
    resolve: (_root, args, ctx) => rotateKey(ctx.prisma, caller(ctx), args.id),
  }),
  setApiKeyWebhookUrl: t.field({
    type: ApiKey,
    description:
      "Sets a key's default webhook URL (an absolute http(s) URL, as a task's webhookUrl; null or \"\" removes it): tasks created with the key from now on without a webhookUrl of their own send their run events there. Errors: UNAUTHENTICATED, NOT_FOUND (no such key of the caller's), INVALID_INPUT, CONFLICT (revoked).",
    args: {
      id: t.arg.int({ required: true, description: 'The key id.' }),
      webhookUrl: t.arg.string({ description: 'The URL; null or "" removes it.' }),
    },
    resolve: (_root, args, ctx) => setKeyWebhookUrl(ctx.prisma, caller(ctx), args.id, args.webhookUrl),
  }),
  revokeApiKey: t.field({
    type: ApiKey,
    description:
      "Revokes a key: requests with it fail from now on (other server processes: within 5 s) and its open subscriptions end. Revoking a revoked key changes nothing. Errors: UNAUTHENTICATED, NOT_FOUND (no such key, or another user's to a non-administrator).",
    args: { id: t.arg.int({ required: true, description: 'The key id.' }) },
    resolve: (_root, args, ctx) => revokeKey(ctx.prisma, caller(ctx), args.id),
  }),
}));
