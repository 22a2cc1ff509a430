// The venue both the GraphQL and the REST suites create and check: sample 04's Main Hall, its
// GraphQL input, and the schema.org Place fields its JSON-LD carries.

/** The venue's GraphQL input (CreateVenueInput), without its name (suites make names unique). */
export const MAIN_HALL_INPUT = {
  address: '1 Main St',
  city: 'Springfield',
  country: 'United States',
  state: 'IL',
  zip: '62701',
  phone: '555-0100',
  website: 'https://example.com/hall',
  description: 'A big hall',
  showMapLink: false,
};

/** The schema.org fields of its JSON-LD that come from that input. */
export const MAIN_HALL_LD = {
  address: {
    '@type': 'PostalAddress',
    streetAddress: '1 Main St',
    addressLocality: 'Springfield',
    addressRegion: 'IL',
    postalCode: '62701',
    addressCountry: 'United States',
  },
  telephone: '555-0100',
  sameAs: 'https://example.com/hall',
};
