// Venue: the type's own fields (address, map flags, geo, JSON-LD); the fields, queries and mutations
// it shares with organizers come from linked-posts.ts.
import { appearsInJsonLd } from '../capabilities.js';
import { builder } from '../../graphql/builder.js';
import { venueJsonLd } from '../jsonld.js';
import { defineLinkedApi, linkedRecordFields } from './linked-posts.js';
import { isMasked, maskedFlag, maskedText } from './shared.js';
import { readsColumns } from '../../graphql/selected-columns.js';
import { Venue } from './refs.js';
import { imageUrlOf } from './loaders.js';

builder.prismaObjectFields(Venue, (t) => ({
  ...linkedRecordFields('venue', t),
  address: maskedText(t, 'address', 'Street address'),
  city: maskedText(t, 'city', 'City'),
  country: maskedText(t, 'country', 'Country'),
  province: maskedText(t, 'province', 'Province (outside the US)'),
  state: t.exposeString('state', { description: 'State (in the US). Not masked, as in the original.' }),
  zip: maskedText(t, 'zip', 'Postal code'),
  stateprovince: maskedText(
    t,
    'stateprovince',
    'State or province: as given, else the state in the US (or with no country), else the province',
  ),
  showMap: maskedFlag(t, 'showMap', 'Show a map of the venue; true when never stored', true),
  showMapLink: maskedFlag(t, 'showMapLink', 'Show a link to a map; true when never stored', true),
  geoLat: t.float({
    nullable: true,
    description: 'Latitude, when coordinates are stored (0 when masked).',
    extensions: readsColumns('geoLat'),
    resolve: (v, _a, ctx, info) => (v.geoLat == null ? null : isMasked(v, ctx, info) ? 0 : v.geoLat),
  }),
  geoLng: t.float({
    nullable: true,
    description: 'Longitude, when coordinates are stored (0 when masked).',
    extensions: readsColumns('geoLng'),
    resolve: (v, _a, ctx, info) => (v.geoLng == null ? null : isMasked(v, ctx, info) ? 0 : v.geoLng),
  }),
  jsonLd: t.field({
    type: 'JSON',
    nullable: true,
    description:
      'Schema.org JSON-LD (a Place), built from what this request may see; null when the venue does not appear in JSON-LD for the caller (visitors: published only).',
    resolve: async (v, _a, ctx, info) => {
      if (!appearsInJsonLd(ctx.viewer, v)) return null;
      if (!isMasked(v, ctx, info)) return venueJsonLd({ ...v, imageUrl: await imageUrlOf(ctx, v.imageId) });
      const hidden = {
        title: '',
        content: '',
        address: '',
        city: '',
        province: '',
        stateprovince: '',
        zip: '',
        country: '',
        phone: '',
        website: '',
      };
      return venueJsonLd({ ...v, ...hidden, geoLat: null, geoLng: null, imageUrl: null });
    },
  }),
}));

defineLinkedApi({
  type: 'venue',
  ref: Venue,
  typeName: 'Venue',
  searchedFields: 'name, description, excerpt, address, city, province, state, stateprovince, zip, phone (not country or website)',
  ownInputFields: (t) => ({
    address: t.string({ description: 'Street address ("" or null clears).' }),
    city: t.string({ description: 'City ("" or null clears).' }),
    country: t.string({ description: 'Country ("" or null clears).' }),
    province: t.string({ description: 'Province ("" or null clears).' }),
    state: t.string({ description: 'State ("" or null clears).' }),
    zip: t.string({ description: 'Postal code ("" or null clears).' }),
    stateprovince: t.string({
      description: 'State or province; when empty it is derived: the state in the US (or with no country), else the province.',
    }),
    showMap: t.boolean({ description: 'Show a map (default true).' }),
    showMapLink: t.boolean({ description: 'Show a link to a map (default true).' }),
  }),
});
