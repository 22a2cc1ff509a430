// WordPress's kses filters, which keep HTML from a user who may not post it unfiltered down to the
// tags, attributes and URL protocols WordPress allows: wp_filter_post_kses (a post's content and
// excerpt) and wp_filter_kses (a post's title, a term's description). Built on sanitize-html (a
// maintained HTML parser and allow-list) with WordPress's own lists ($allowedposttags, $allowedtags,
// wp_allowed_protocols, safecss_filter_attr's properties), instead of a port of kses' regular
// expressions. As in kses, a removed tag keeps its text (a script's source stays as plain text), and
// entities are left as written; unlike kses, a disallowed URL drops its attribute (kses strips the
// protocol), comments are dropped, and void elements are written <br />.
import sanitizeHtml from 'sanitize-html';

/** Attributes kses allows on every tag of $allowedposttags (_wp_add_global_attributes). */
const GLOBAL_ATTRIBUTES = ['aria-*', 'class', 'data-*', 'dir', 'id', 'lang', 'role', 'style', 'title', 'xml:lang'];

/** $allowedposttags: tag → its own attributes (the global ones come on top). */
const POST_TAGS: Record<string, string[]> = {
  address: [],
  a: ['href', 'rel', 'rev', 'name', 'target', 'download', 'referrerpolicy'],
  abbr: [],
  acronym: [],
  area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'],
  article: ['align'],
  aside: ['align'],
  audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'],
  b: [],
  bdo: [],
  big: [],
  blockquote: ['cite'],
  br: [],
  button: ['disabled', 'name', 'type', 'value'],
  caption: ['align'],
  cite: [],
  code: [],
  col: ['align', 'char', 'charoff', 'span', 'valign', 'width'],
  colgroup: ['align', 'char', 'charoff', 'span', 'valign', 'width'],
  del: ['datetime'],
  dd: [],
  dfn: [],
  details: ['align', 'open'],
  div: ['align'],
  dl: [],
  dt: [],
  em: [],
  fieldset: [],
  figure: ['align'],
  figcaption: ['align'],
  font: ['color', 'face', 'size'],
  footer: ['align'],
  h1: ['align'],
  h2: ['align'],
  h3: ['align'],
  h4: ['align'],
  h5: ['align'],
  h6: ['align'],
  header: ['align'],
  hgroup: ['align'],
  hr: ['align', 'noshade', 'size', 'width'],
  i: [],
  img: ['alt', 'align', 'border', 'height', 'hspace', 'loading', 'longdesc', 'vspace', 'src', 'usemap', 'width', 'decoding'],
  ins: ['datetime', 'cite'],
  kbd: [],
  label: ['for'],
  legend: ['align'],
  li: ['align', 'value'],
  main: ['align'],
  map: ['name'],
  mark: [],
  menu: ['type'],
  nav: ['align'],
  object: ['data', 'type'],
  p: ['align'],
  pre: ['width'],
  q: ['cite'],
  rb: [],
  rp: [],
  rt: [],
  rtc: [],
  ruby: [],
  s: [],
  samp: [],
  span: ['align'],
  section: ['align'],
  small: [],
  strike: [],
  strong: [],
  sub: [],
  summary: ['align'],
  sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: ['align', 'char', 'charoff', 'valign'],
  td: [
    'abbr',
    'align',
    'axis',
    'bgcolor',
    'char',
    'charoff',
    'colspan',
    'headers',
    'height',
    'nowrap',
    'rowspan',
    'scope',
    'valign',
    'width',
  ],
  textarea: ['cols', 'rows', 'disabled', 'name', 'readonly'],
  tfoot: ['align', 'char', 'charoff', 'valign'],
  th: ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers', 'height', 'nowrap', 'rowspan', 'scope', 'valign'],
  thead: ['align', 'char', 'charoff', 'valign'],
  title: [],
  tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
  track: ['default', 'kind', 'label', 'src', 'srclang'],
  tt: [],
  u: [],
  ul: ['type'],
  ol: ['start', 'type', 'reversed'],
  var: [],
  video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload', 'src', 'width'],
};

/** $allowedtags: what a title or a term description may hold (no global attributes). */
const DATA_TAGS: Record<string, string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};

/** wp_allowed_protocols. */
const PROTOCOLS = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'irc6',
  'ircs',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'sms',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
];

/** safecss_filter_attr's properties; a value with url(), expression, a backslash or a comment is dropped. */
const CSS_PROPERTIES = (
  'background background-color background-image background-position background-size background-attachment background-blend-mode ' +
  'border border-radius border-width border-color border-style border-right border-right-color border-right-style border-right-width ' +
  'border-bottom border-bottom-color border-bottom-left-radius border-bottom-right-radius border-bottom-style border-bottom-width ' +
  'border-bottom-right-radius border-bottom-left-radius border-left border-left-color border-left-style border-left-width border-top ' +
  'border-top-color border-top-left-radius border-top-right-radius border-top-style border-top-width border-spacing border-collapse ' +
  'caption-side columns column-count column-fill column-gap column-rule column-span column-width color filter font font-family ' +
  'font-size font-style font-variant font-weight letter-spacing line-height text-align text-decoration text-indent text-transform ' +
  'height min-height max-height width min-width max-width margin margin-right margin-bottom margin-left margin-top margin-block-start ' +
  'margin-block-end margin-inline-start margin-inline-end padding padding-right padding-bottom padding-left padding-top ' +
  'padding-block-start padding-block-end padding-inline-start padding-inline-end flex flex-basis flex-direction flex-flow flex-grow ' +
  'flex-shrink flex-wrap gap column-gap row-gap grid-template-columns grid-auto-columns grid-column-start grid-column-end grid-column ' +
  'grid-column-gap grid-template-rows grid-auto-rows grid-row-start grid-row-end grid-row grid-row-gap grid-gap justify-content ' +
  'justify-items justify-self align-content align-items align-self clear cursor direction float list-style-type object-fit ' +
  'object-position overflow vertical-align writing-mode position top right bottom left z-index box-shadow aspect-ratio ' +
  'container-type'
).split(' ');
const SAFE_CSS_VALUE = /^(?![\s\S]*(?:url\s*\(|expression|\\|\/\*|&#))[\s\S]*$/i;

function options(tags: Record<string, string[]>, globalAttributes: string[]): sanitizeHtml.IOptions {
  const allowedAttributes: Record<string, string[]> = {};
  for (const [tag, attributes] of Object.entries(tags)) allowedAttributes[tag] = [...attributes, ...globalAttributes];
  const css = Object.fromEntries(CSS_PROPERTIES.map((property) => [property, [SAFE_CSS_VALUE]]));
  return {
    allowedTags: Object.keys(tags),
    allowedAttributes,
    allowedSchemes: PROTOCOLS,
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'longdesc', 'usemap', 'poster', 'data', 'action'],
    allowProtocolRelative: true,
    allowedStyles: { '*': css },
    disallowedTagsMode: 'discard',
    // kses keeps the text of every tag it removes, a script's or style's too (as inert text).
    nonTextTags: [],
    parser: { decodeEntities: false },
  };
}

const POST_OPTIONS = options(POST_TAGS, GLOBAL_ATTRIBUTES);
const DATA_OPTIONS = options(DATA_TAGS, []);

/** wp_filter_post_kses: a post's content or excerpt from a user without unfiltered_html. */
export const ksesPost = (html: string): string => sanitizeHtml(html, POST_OPTIONS);

/** wp_filter_kses: a post's title from a user without unfiltered_html, and every term description. */
export const ksesData = (html: string): string => sanitizeHtml(html, DATA_OPTIONS);

/**
 * A post's fields as WordPress saves them from this caller: unless the caller may post unfiltered
 * HTML (unfiltered_html), the title (a venue's or organizer's name) through wp_filter_kses, the
 * description and excerpt through wp_filter_post_kses.
 */
export function postHtmlAsSaved<T extends object>(fields: T, titleKey: 'title' | 'name', unfiltered: boolean): T {
  if (unfiltered) return fields;
  const out = { ...fields } as Record<string, unknown>;
  if (typeof out[titleKey] === 'string') out[titleKey] = ksesData(out[titleKey]);
  for (const key of ['description', 'excerpt']) if (typeof out[key] === 'string') out[key] = ksesPost(out[key]);
  return out as T;
}
