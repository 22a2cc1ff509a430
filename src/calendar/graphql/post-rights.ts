// postRights(id): WordPress's current_user_can('edit_post' | 'delete_post', id) for the post an id
// names, whatever its type. The REST layer reads it for the Allow header of a route given an id of
// another type (TEC's can_edit/can_delete ask WordPress about that post, under its own type's rules).
import { builder } from '../../graphql/builder.js';
import { canDeletePost, canEditPost, type PostAccess } from '../capabilities.js';
import { postAccessOf } from '../posts.js';

const PostRights = builder.objectRef<PostAccess>('PostRights').implement({
  description: 'What the caller may do to one post (an event, venue, organizer or image), as WordPress answers it.',
  fields: (t) => ({
    edit: t.boolean({ description: "WordPress's edit_post on it.", resolve: (post, _a, ctx) => canEditPost(ctx.viewer, post) }),
    delete: t.boolean({ description: "WordPress's delete_post on it.", resolve: (post, _a, ctx) => canDeletePost(ctx.viewer, post) }),
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
