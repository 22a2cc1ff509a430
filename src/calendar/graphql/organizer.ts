// Organizer: the type's own fields (e-mail, JSON-LD); the fields, queries and mutations it shares
// with venues come from linked-posts.ts.
import { appearsInJsonLd } from '../capabilities.js';
import { builder } from '../../graphql/builder.js';
import { organizerJsonLd } from '../jsonld.js';
import { defineLinkedApi, linkedRecordFields } from './linked-posts.js';
import { isMasked, maskedText } from './shared.js';
import { Organizer } from './refs.js';
import { imageUrlOf } from './loaders.js';

builder.prismaObjectFields(Organizer, (t) => ({
  ...linkedRecordFields('organizer', t),
  email: maskedText(t, 'email', 'E-mail address (stored as given, not validated)'),
  jsonLd: t.field({
    type: 'JSON',
    nullable: true,
    description:
      'Schema.org JSON-LD (a Person), built from what this request may see; null when the organizer does not appear in JSON-LD for the caller (visitors: published only).',
    resolve: async (o, _a, ctx, info) =>
      !appearsInJsonLd(ctx.viewer, o)
        ? null
        : isMasked(o, ctx, info)
          ? organizerJsonLd({ ...o, title: '', content: '', phone: '', email: '', website: '', imageUrl: null })
          : organizerJsonLd({ ...o, imageUrl: await imageUrlOf(ctx, o.imageId) }),
  }),
}));

defineLinkedApi({
  type: 'organizer',
  ref: Organizer,
  typeName: 'Organizer',
  searchedFields: 'name, description, excerpt, phone, email, website',
  ownInputFields: (t) => ({
    email: t.string({ description: 'E-mail address, not validated ("" or null clears).' }),
  }),
});
