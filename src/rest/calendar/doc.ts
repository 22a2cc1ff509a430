// The /doc document's data (spec §2.9, sample 02-doc): TEC's info, the /doc operation and
// components.schemas as the original emits them (TEC's *_Definition_Provider classes, their odd
// descriptions included), except the stray trailing space of CostDetails' `currency_position `
// (Almanac decision 17: valid OpenAPI 3.0). The record schemas come from their item schemas
// (records.ts); paths, parameters and request bodies from the route table.
import type { DocInfo } from '../openapi.js';
import { documentedSchema, ref } from './item-schema.js';
import { EVENT, ORGANIZER, TERM_DOC, VENUE } from './records.js';

const schemas = {
  ImageSize: {
    type: 'object',
    properties: {
      width: { type: 'integer', description: 'The image width in pixels in the specified size' },
      height: { type: 'integer', description: 'The image height in pixels in the specified size' },
      'mime-type': { type: 'string', description: 'The image mime-type' },
      url: { type: 'string', format: 'uri', description: 'The link to the image in the specified size on the site' },
    },
  },
  CostDetails: {
    type: 'object',
    properties: {
      currency_symbol: { type: 'string', description: 'The cost currency symbol' },
      currency_position: {
        type: 'string',
        description: 'The position of the currency symbol in the cost string',
        enum: ['prefix', 'postfix'],
      },
      values: { type: 'array', items: { type: 'integer' }, description: 'A sorted array of all the numeric values for the cost' },
    },
  },
  Term: { type: 'object', properties: TERM_DOC },
  Image: {
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri', description: 'The URL to the full size version of the image' },
      id: { type: 'integer', description: 'The image WordPress post ID' },
      extension: { type: 'string', description: 'The image file extension' },
      width: { type: 'integer', description: 'The image natural width in pixels' },
      height: { type: 'integer', description: 'The image natural height in pixels' },
      sizes: { type: 'array', description: 'The details about each size available for the image', items: ref('ImageSize') },
    },
  },
  DateDetails: {
    type: 'object',
    properties: {
      year: { type: 'integer', description: 'The date year' },
      month: { type: 'integer', description: 'The date month' },
      day: { type: 'integer', description: 'The date day' },
      hour: { type: 'integer', description: 'The date hour' },
      minutes: { type: 'integer', description: 'The date minutes' },
      seconds: { type: 'integer', description: 'The date seconds' },
    },
  },
  Event: documentedSchema(EVENT),
  Venue: documentedSchema(VENUE),
  Organizer: documentedSchema(ORGANIZER),
};

export const docInfo: DocInfo = {
  info: {
    version: '1.0.0',
    title: 'The Events Calendar REST API',
    description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
  },
  schemas,
  docOperation: {
    responses: { '200': { description: 'Returns the documentation for The Events Calendar REST API in Swagger consumable format.' } },
  },
};
