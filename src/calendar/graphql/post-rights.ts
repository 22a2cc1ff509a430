// PostRights: WordPress's current_user_can('edit_post' | 'delete_post', id) for one post, and
// whether the caller may publish it. Asked by id (postRights: the REST layer reads it for the Allow
// header of a route given an id of another type, TEC's can_edit/can_delete asking WordPress about
// that post under its own type's rules) or as an event's, venue's or organizer's `rights`, which
// clients such as the editor show their buttons by instead of deciding again.
import { builder } from '../../graphql/builder.js';
import { readsColumns } from '../../graphql/selected-columns.js';
import { canDeletePost, canEditPost, canPublish, type PostAccess } from '../capabilities.js';
import { postAccessOf } from '../posts.js';
import { Event, Organizer, Venue } from './refs.js';

const PostRights = builder.objectRef<PostAccess>('PostRights').implement({
  description: 'What the caller may do to one post (an event, venue, organizer or image), as WordPress answers it.',
  fields: (t) => ({
    edit: t.boolean({
      description: "WordPress's edit_post on it: updating it, and restoring it from the trash.",
      resolve: (post, _a, ctx) => canEditPost(ctx.viewer, post),
    }),
    delete: t.boolean({
      description: "WordPress's delete_post on it: moving it to the trash.",
      resolve: (post, _a, ctx) => canDeletePost(ctx.viewer, post),
    }),
    publish: t.boolean({
      description:
        'Whether an update of it may publish or schedule it (edit_post and publish_posts); otherwise such a status is scaled back to pending.',
      resolve: (post, _a, ctx) => canEditPost(ctx.viewer, post) && canPublish(ctx.viewer),
    }),
  }),
});

builder.queryFields((t) => ({
  postRights: t.field({
    type: PostRights,
    nullable: true,
    description:
      'What the caller may do to the post with this id, whatever its type (each type under its own rules); null when no post has this id.',
    args: { id: t.arg.int({ required: true, description: 'A post id: an event, venue, organizer or image.' }) },
    resolve: (_root, args, ctx) => postAccessOf(ctx.prisma, args.id),
  }),
}));

const rights = {
  type: PostRights,
  description: 'What the caller may do to this record, as the mutations decide it.',
  // Status and author are read with every row (loaders.ts POST_ACCESS).
  extensions: readsColumns(),
  resolve: (post: PostAccess) => post,
};
builder.prismaObjectField(Event, 'rights', (t) => t.field(rights));
builder.prismaObjectField(Venue, 'rights', (t) => t.field(rights));
builder.prismaObjectField(Organizer, 'rights', (t) => t.field(rights));
