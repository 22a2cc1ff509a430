/**
 * RFC 5545 recurrence rules: parse/format/validate (rule.ts), expansion into event-local wall
 * times (expand.ts) and English descriptions (describe.ts).
 *
 * Pure domain code: no HTTP, no GraphQL, no storage.
 */
export {
  FREQUENCIES,
  MAX_COUNT,
  MAX_INTERVAL,
  RecurrenceError,
  formatRrule,
  isBounded,
  parseRrule,
  validateRule,
  type Frequency,
  type RecurrenceRule,
} from './rule.js';
export { SCAN_PERIODS, expandOccurrences, neverMatches, type ExpandOptions } from './expand.js';
export { describeRule } from './describe.js';
