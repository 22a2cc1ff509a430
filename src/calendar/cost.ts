/**
 * Event cost (spec §2.2 `cost`, §3.5 `cost`/`cost_details`).
 *
 * Storage model (mirrors TEC meta): the raw cost strings as sent (one per array element) plus the
 * currency symbol/position detected from them at save time ('' when none could be detected).
 * `cost_details.currency_symbol/currency_position` report those stored values verbatim, while the
 * display `cost` falls back to the site default ($, prefix) when they are empty. Sample 08 shows it:
 * cost "10" → stored symbol "" → `cost: "$10"` with `cost_details.currency_symbol: ""`.
 */
import { escHtml } from './text.js';
import { phpFloatval } from '../php/casts.js';

export type CurrencyPosition = 'prefix' | 'postfix' | '';

/** A number inside a cost string: digits with optional `.`/`,` groups ("25,55", "1,000.50"). */
const NUMBER = /\d+(?:[.,]\d+)*/g;

/** Request `cost` (string, number or array of them) → stored values; blanks and non-scalars dropped. */
export function parseCostInput(raw: unknown): string[] {
  const items = Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const item of items) {
    let value: string | null = null;
    if (typeof item === 'string') value = item;
    else if (typeof item === 'number' && Number.isFinite(item)) value = String(item);
    if (value !== null && value.trim() !== '') out.push(value);
  }
  return out;
}

/**
 * Normalise one number token to a numeric string with `.` decimals (TEC parse_separators):
 * two different separators → the last is decimal; one kind repeated → thousands; a single one
 * followed by exactly three digits → locale default (en: `,` thousands, `.` decimal); else decimal.
 */
export function normaliseNumber(token: string): string {
  const seps: string[] = token.match(/[.,]/g) ?? [];
  if (seps.length === 0) return token;
  let decimal: string | null;
  if (new Set(seps).size > 1) decimal = seps[seps.length - 1];
  else if (seps.length > 1) decimal = null;
  else {
    const sep = seps[0];
    const tail = token.slice(token.lastIndexOf(sep) + 1);
    decimal = tail.length === 3 ? '.' : sep;
  }
  let out = '';
  for (const ch of token) {
    if (ch !== '.' && ch !== ',') out += ch;
    else if (ch === decimal) out += '.';
  }
  return out;
}

interface NumberToken {
  text: string; // as written in the stored value, used for display
  value: number;
}

function numbersIn(value: string): NumberToken[] {
  return (value.match(NUMBER) ?? []).map((text) => ({ text, value: Number(normaliseNumber(text)) }));
}

/**
 * Currency symbol = text around the number(s) of each stored value (before the first or after the
 * last; a value with text on both sides has none). Must be the same for every value that has a
 * number, else none. Position = `prefix` when the symbol starts the value, `postfix` otherwise; mixed
 * positions keep the symbol but give no position (TEC parse_currency_symbol/parse_currency_position).
 */
export function detectCurrency(values: string[]): { symbol: string; position: CurrencyPosition } {
  const none = { symbol: '', position: '' as CurrencyPosition };
  const found: Array<{ symbol: string; position: 'prefix' | 'postfix' }> = [];
  for (const raw of values) {
    const value = raw.trim();
    const tokens = [...value.matchAll(NUMBER)];
    if (tokens.length === 0) continue;
    const first = tokens[0];
    const last = tokens[tokens.length - 1];
    const before = value.slice(0, first.index).trim();
    const after = value.slice(last.index! + last[0].length).trim();
    if (before && after) return none;
    found.push(before ? { symbol: before, position: 'prefix' } : { symbol: after, position: 'postfix' });
  }
  if (found.length === 0) return none;
  const symbol = found[0].symbol;
  if (!symbol || found.some((f) => f.symbol !== symbol)) return none;
  const position = found.every((f) => f.position === found[0].position) ? found[0].position : '';
  return { symbol, position };
}

/**
 * `cost_details.values`: every numeric component of every stored value as a normalised numeric
 * string; values without any number contribute their raw text. Sorted ascending numerically.
 */
export function costValues(values: string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    if (value === '') continue;
    const tokens = value.match(NUMBER);
    if (tokens) out.push(...tokens.map(normaliseNumber));
    else out.push(value);
  }
  return out
    .map((v, i) => ({ v, i, k: phpFloatval(v) })) // PHP's sort(SORT_NUMERIC) compares (float) casts
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .map((e) => e.v);
}

/**
 * Display `cost` (TEC get_formatted_event_cost with currency): min and max numeric component, each
 * `Free` when it equals 0 or else its text with the currency symbol at the stored position (defaults
 * when not stored), joined by " – " when they differ. A lone non-numeric value is shown as is.
 */
export function formatCost(
  values: string[],
  symbol: string,
  position: string,
  defaults: { symbol: string; position: string } = { symbol: '$', position: 'prefix' },
): string {
  const stored = values.filter((v) => v !== '');
  if (stored.length === 0) return '';
  const numbers = stored.flatMap(numbersIn);
  if (numbers.length === 0) {
    // TEC returns a single non-numeric cost verbatim; several of them collapse to "0", i.e. Free.
    return stored.length === 1 ? escHtml(stored[0]) : 'Free';
  }
  let min = numbers[0];
  let max = numbers[0];
  for (const n of numbers) {
    if (n.value < min.value) min = n;
    if (n.value > max.value) max = n;
  }
  const sym = symbol || defaults.symbol;
  const pos = position || defaults.position;
  const show = (n: NumberToken): string => escHtml(n.value === 0 ? 'Free' : pos === 'postfix' ? `${n.text}${sym}` : `${sym}${n.text}`);
  const low = show(min);
  const high = show(max);
  return low === high ? low : `${low} \u2013 ${high}`;
}

/** `cost_details` object of the event record. */
export function costDetails(
  values: string[],
  symbol: string,
  position: string,
): { currency_symbol: string; currency_code: string; currency_position: string; values: string[] } {
  return { currency_symbol: symbol, currency_code: '', currency_position: position, values: costValues(values) };
}
