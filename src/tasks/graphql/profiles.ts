// Browser profiles in GraphQL: the caller's profiles (what they hold, never their contents) and the
// mutation that deletes one. Profiles are made and updated by the runs of tasks that name them.
import { builder } from '../../graphql/builder.js';
import { deleteProfile, listProfiles, MAX_PROFILES, type ProfileView } from '../profiles.js';
import { ownerOf } from './resolve.js';

const BrowserProfile = builder.objectRef<ProfileView>('BrowserProfile').implement({
  description:
    "A browser profile: the cookies and local storage that tasks naming it (createTask's `profile`) start with and save back to. Its contents are stored encrypted and never returned.",
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The name tasks use.' }),
    cookies: t.exposeInt('cookies', { description: 'How many cookies it holds.' }),
    origins: t.exposeInt('origins', { description: 'How many sites (origins) it holds local storage for.' }),
    bytes: t.exposeInt('bytes', { description: 'The size of its state, in bytes of JSON (local storage is dropped past 1 MiB).' }),
    createdAt: t.field({ type: 'DateTime', description: 'When a run first saved it.', resolve: (p) => p.createdAt }),
    updatedAt: t.field({ type: 'DateTime', description: 'When a run last saved it.', resolve: (p) => p.updatedAt }),
  }),
});

builder.queryFields((t) => ({
  browserProfiles: t.field({
    type: [BrowserProfile],
    description: `The caller's browser profiles by name (at most ${MAX_PROFILES}; a run of a new one past that is not saved).`,
    resolve: (_root, _args, ctx) => listProfiles(ctx.prisma, ownerOf(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  deleteBrowserProfile: t.field({
    type: BrowserProfile,
    description:
      "Deletes one of the caller's browser profiles and answers what it held; tasks naming it start with a fresh browser again (and make it anew). Errors: INVALID_INPUT, NOT_FOUND.",
    args: { name: t.arg.string({ required: true, description: 'The profile name.' }) },
    resolve: (_root, args, ctx) => deleteProfile(ctx.prisma, ownerOf(ctx), args.name),
  }),
}));
