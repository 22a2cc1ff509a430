/**
 * Text rendering the way WordPress filters post fields before TEC returns them (spec §3.1):
 * `title` = the_title filters (wptexturize, convert_chars, trim, capital_P_dangit);
 * `description`/`excerpt` = the_content / the_excerpt filters (wptexturize, wpautop, capital_P_dangit),
 * then trimmed. Smilies, shortcodes, blocks and responsive-image attributes are out of scope.
 */
import { autop } from '@wordpress/autop';

/** PHP trim(): by default only " \t\n\r\0\x0B" — unlike String#trim it keeps non-breaking spaces. */
export function phpTrim(s: string, characters = ' \t\n\r\0\x0B'): string {
  let [start, end] = [0, s.length];
  while (start < end && characters.includes(s[start])) start++;
  while (end > start && characters.includes(s[end - 1])) end--;
  return s.slice(start, end);
}

// wp_spaces_regexp(): whitespace, a raw NBSP or its entity.
const SP = '[\\r\\n\\t ]|\\u00a0|&nbsp;';
// PHP's \Z: end of subject, optionally before one final newline.
const END = '\\n?$';

const OPEN_Q_FLAG = '<!--oq-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const APOS_FLAG = '<!--apos-->';

const OPENING_QUOTE = '&#8220;';
const CLOSING_QUOTE = '&#8221;';
const APOS = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const OPENING_SINGLE_QUOTE = '&#8216;';
const CLOSING_SINGLE_QUOTE = '&#8217;';
const EN_DASH = '&#8211;';
const EM_DASH = '&#8212;';

const COCKNEY = ["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"];

// str_replace pairs, applied in order over the whole segment.
const STATIC_REPLACEMENTS: Array<[string, string]> = [
  ['...', '&#8230;'],
  ['``', OPENING_QUOTE],
  ["''", CLOSING_QUOTE],
  [' (tm)', ' &#8482;'],
  ...COCKNEY.map((w): [string, string] => [w, w.replace(/'/g, APOS)]),
];

const APOS_PATTERNS: Array<[RegExp, string]> = [
  // '99' and '99" : abbreviated year at the end of a quotation.
  [new RegExp(`'(\\d\\d)'(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), `${APOS_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  [new RegExp(`'(\\d\\d)"(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), `${APOS_FLAG}$1${CLOSING_QUOTE}`],
  // '99 '99s '99's — but never '9, '99%, '999 or '99.0.
  [new RegExp(`'(?=\\d\\d(?:(?=${END})|(?![%\\d]|[.,]\\d)))`, 'g'), APOS_FLAG],
  // Quoted numbers like '0.42'.
  [new RegExp(`(?<=^|${SP})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  // Single quote at the start, or after ( { < [ " - or a space.
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SP})'`, 'g'), OPEN_SQ_FLAG],
  // Apostrophe inside a word.
  [new RegExp(`(?<!${SP})'(?!${END}|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SP})`, 'g'), APOS_FLAG],
];

const QUOTE_PATTERNS: Array<[RegExp, string]> = [
  [new RegExp(`(?<=^|${SP})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSING_QUOTE}`],
  [new RegExp(`(?<=^|[([{\\-]|&lt;|${SP})"(?!${SP})`, 'g'), OPEN_Q_FLAG],
];

const DASH_PATTERNS: Array<[RegExp, string]> = [
  [/---/g, EM_DASH],
  [new RegExp(`(?<=^|${SP})--(?=${END}|${SP})`, 'g'), EM_DASH],
  [/(?<!xn)--/g, EN_DASH],
  [new RegExp(`(?<=^|${SP})-(?=${END}|${SP})`, 'g'), EN_DASH],
];

// Replace each & with &#038; unless it already looks like an entity.
const LONE_AMP = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

const NO_TEXTURIZE_TAGS = ['pre', 'code', 'kbd', 'style', 'script', 'tt'];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function countMatches(s: string, re: RegExp): number {
  return (s.match(re) ?? []).length;
}

/** Port of wptexturize_primes(): decides whether ' / " after a digit is a prime or a closing quote. */
function texturizePrimes(haystack: string, needle: string, prime: string, openQuote: string, closeQuote: string): string {
  const flag = '<!--wp-prime-or-quote-->';
  const quotePattern = new RegExp(`${needle}(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g');
  const primePattern = new RegExp(`(?<=\\d)${needle}`, 'g');
  const flagAfterDigit = new RegExp(`(?<=\\d)${escapeRegExp(flag)}`, 'g');
  const flagNoDigit = new RegExp(`(?<!\\d)${escapeRegExp(flag)}`, 'g');

  const sentences = haystack.split(openQuote).map((sentence, key) => {
    if (!sentence.includes(needle)) return sentence;
    if (key !== 0 && !sentence.includes(closeQuote)) {
      const count = countMatches(sentence, quotePattern);
      sentence = sentence.replace(quotePattern, flag);
      if (count > 1) {
        // Several closing-quote candidates: prefer one not after a digit, else the last one.
        const count2 = countMatches(sentence, flagNoDigit);
        sentence = sentence.replace(flagNoDigit, closeQuote);
        if (count2 === 0) {
          const pos = sentence.includes(`${flag}.`) ? sentence.lastIndexOf(`${flag}.`) : sentence.lastIndexOf(flag);
          sentence = sentence.slice(0, pos) + closeQuote + sentence.slice(pos + flag.length);
        }
        sentence = sentence.replace(primePattern, prime).replace(flagAfterDigit, prime).split(flag).join(closeQuote);
      } else if (count === 1) {
        sentence = sentence.split(flag).join(closeQuote).replace(primePattern, prime);
      } else {
        sentence = sentence.replace(primePattern, prime);
      }
    } else {
      sentence = sentence.replace(primePattern, prime).replace(quotePattern, closeQuote);
    }
    if (needle === '"') sentence = sentence.split('"').join(closeQuote);
    return sentence;
  });
  return sentences.join(openQuote);
}

function texturizeText(curl: string): string {
  for (const [from, to] of STATIC_REPLACEMENTS) curl = curl.split(from).join(to);
  if (curl.includes("'")) {
    for (const [re, to] of APOS_PATTERNS) curl = curl.replace(re, to);
    curl = texturizePrimes(curl, "'", PRIME, OPEN_SQ_FLAG, CLOSING_SINGLE_QUOTE);
    curl = curl.split(APOS_FLAG).join(APOS).split(OPEN_SQ_FLAG).join(OPENING_SINGLE_QUOTE);
  }
  if (curl.includes('"')) {
    for (const [re, to] of QUOTE_PATTERNS) curl = curl.replace(re, to);
    curl = texturizePrimes(curl, '"', DOUBLE_PRIME, OPEN_Q_FLAG, CLOSING_QUOTE);
    curl = curl.split(OPEN_Q_FLAG).join(OPENING_QUOTE);
  }
  if (curl.includes('-')) {
    for (const [re, to] of DASH_PATTERNS) curl = curl.replace(re, to);
  }
  // 9x9 (times), but never 0x9999.
  if (/(?<=\d)x\d/.test(curl)) {
    curl = curl.replace(/\b(0[\d.,]+|[1-9][\d.,]*)x(\d[\d.,]*)\b/g, '$1&#215;$2');
  }
  return curl.replace(LONE_AMP, '&#038;');
}

/** _wptexturize_pushpop_element(): track <pre>/<code>/… so their content is left alone. */
function pushPopElement(tag: string, stack: string[]): void {
  const closing = tag[1] === '/';
  const offset = closing ? 2 : 1;
  const space = tag.indexOf(' ');
  const name = space === -1 ? tag.slice(offset, -1) : tag.slice(offset, space);
  if (!NO_TEXTURIZE_TAGS.includes(name)) return;
  if (!closing) stack.push(name);
  else if (stack[stack.length - 1] === name) stack.pop();
}

/**
 * wptexturize(): curly quotes, apostrophes, primes, dashes, ellipsis, ×, and `&` → `&#038;`
 * outside HTML tags; content of pre/code/kbd/style/script/tt is untouched.
 */
export function wptexturize(text: string): string {
  if (!text) return text;
  const parts = text.split(/(<!--[\s\S]*?(?:-->|$)|<[^>]*>?)/).filter((p) => p !== '');
  const stack: string[] = [];
  return parts
    .map((curl) => {
      if (curl[0] === '<') {
        if (curl.startsWith('<!--')) return curl;
        const fixed = curl.replace(LONE_AMP, '&#038;');
        pushPopElement(fixed, stack);
        return fixed;
      }
      if (phpTrim(curl) === '' || stack.length > 0) return curl;
      return texturizeText(curl);
    })
    .join('');
}

/** convert_chars(): lone `&` → `&#038;` (title filter; wptexturize has usually done it already). */
function convertChars(s: string): string {
  return s.includes('&') ? s.replace(/&([^#])(?![a-z1-4]{1,8};)/gi, '&#038;$1') : s;
}

/** capital_P_dangit(), content flavour (the title flavour is a plain replace). */
function capitalPDangit(s: string): string {
  return s.replace(/(?<=[ (>]|&#8216;|&#8220;)Wordpress/g, 'WordPress');
}

/**
 * `render` with its recent results kept: the filters are pure and cost ~0.1 ms a text, and the same
 * records are rendered on request after request. Least recently used texts go first once the kept
 * texts and results exceed `maxChars` characters (2 MB of strings each by default).
 */
export function keepRecent(render: (raw: string) => string, maxChars = 1_000_000): (raw: string) => string {
  const kept = new Map<string, string>();
  let chars = 0;
  return (raw) => {
    if (typeof raw !== 'string') return render(raw);
    const hit = kept.get(raw);
    if (hit !== undefined) {
      kept.delete(raw);
      kept.set(raw, hit);
      return hit;
    }
    const result = render(raw);
    const size = raw.length + result.length;
    if (size > maxChars / 10) return result; // a rare very long text is not worth evicting others for
    kept.set(raw, result);
    for (chars += size; chars > maxChars;) {
      const [oldest, value] = kept.entries().next().value!;
      kept.delete(oldest);
      chars -= oldest.length + value.length;
    }
    return result;
  };
}

/** Rendered `title`: the_title filters then trim. */
export const renderTitle = keepRecent((raw: string) => phpTrim(convertChars(wptexturize(raw ?? ''))).replace(/Wordpress/g, 'WordPress'));

/**
 * Rendered `description`: the_content filters (wptexturize, wpautop, capital_P_dangit) then trim.
 * `"Event 01 description"` → `"<p>Event 01 description</p>"`; empty → `""`.
 */
export const renderContent = keepRecent((raw: string) => (raw ? phpTrim(capitalPDangit(autop(wptexturize(raw)))) : ''));

/** Rendered `excerpt`: the_excerpt filters (wptexturize, convert_chars, wpautop) then trim. Never auto-generated. */
export const renderExcerpt = keepRecent((raw: string) => (raw ? phpTrim(autop(convertChars(wptexturize(raw)))) : ''));

// Entity-looking sequences esc_html leaves alone (it does not double-encode).
const ENTITY = /^&(?:[a-z][a-z0-9]{1,31}|#\d{1,7}|#x[0-9a-f]{1,6});/i;

/** esc_html()/esc_attr(): escape & < > " ' without double-encoding existing entities. */
export function escHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch, offset: number) => {
    switch (ch) {
      case '&':
        return ENTITY.test(s.slice(offset)) ? '&' : '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      default:
        return '&#039;';
    }
  });
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '\u2026',
  ndash: '\u2013',
  mdash: '\u2014',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  laquo: '\u00ab',
  raquo: '\u00bb',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  euro: '\u20ac',
  pound: '\u00a3',
  times: '\u00d7',
  deg: '\u00b0',
  middot: '\u00b7',
  bull: '\u2022',
};

/** Decode numeric entities and a handful of common named ones; unknown entities stay as written. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const cp = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** Plain text from rendered HTML (JSON-LD descriptions): strip tags, decode entities, collapse whitespace. */
export function plainText(html: string): string {
  const stripped = (html ?? '')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?(?:p|br|div|li|h[1-6]|blockquote|tr)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(stripped).replace(/\s+/g, ' ').trim();
}

/**
 * WordPress's sanitize_text_field: an unclosed "<" escaped, tags stripped (a script's or style's
 * content with them), whitespace runs collapsed to one space, trimmed, %xx octets removed.
 */
export function sanitizeTextField(raw: string): string {
  let s = String(raw ?? '');
  if (s.includes('<')) {
    // wp_pre_kses_less_than: a "<" that never closes is text, not a tag.
    s = s.replace(/<[^>]*?(?=<|$)/g, (m) => m.replace(/</g, '&lt;'));
    s = s.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '').replace(/<[^>]*>/g, '');
  }
  s = phpTrim(s.replace(/[\r\n\t ]+/g, ' '));
  if (/%[a-f0-9]{2}/i.test(s)) {
    while (/%[a-f0-9]{2}/i.test(s)) s = s.replace(/%[a-f0-9]{2}/gi, '');
    s = s.replace(/ +/g, ' ').trim();
  }
  return s;
}

/** PHP strip_tags(), roughly: a `<` followed by a non-space opens a tag that runs to `>` (or the end). */
export function stripTags(s: string): string {
  return s.replace(/<!--[\s\S]*?(?:-->|$)/g, '').replace(/<(?=\S)[^>]*(?:>|$)/g, '');
}

/** PHP's htmlspecialchars_decode(…, ENT_QUOTES). */
const decodeHtmlSpecialChars = (text: string) =>
  text.replace(/&(amp|quot|lt|gt|#0*39|#x0*27);/g, (_all, name: string) => ({ amp: '&', quot: '"', lt: '<', gt: '>' })[name] ?? "'");

/** tribe-common's tec_sanitize_string: entities of HTML's special characters decoded, then tags stripped. */
export const tecSanitizeString = (text: string): string => stripTags(decodeHtmlSpecialChars(text));
