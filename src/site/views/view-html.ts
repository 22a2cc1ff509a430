// The calendar views as HTML: a search bar (keyword, date, category, tag), links between the views,
// the month grid, the day and the list. Plain links and GET forms, no script; every value escaped.
// On a narrow screen site.css lays the month grid out as a list of the days that have events.
import { decodeEntities, escHtml } from '../../calendar/text.js';
import { eventCard, statusLabel, type PageEvent } from '../pages.js';
import { addDays, addMonths, dayLabel, monthLabel, weekdayLong, weekdayShort } from './calendar-days.js';
import { filterFields, viewUrl, type ViewState } from './view-state.js';

const esc = (value: unknown) => escHtml(String(value ?? ''));

export type CellEvent = Pick<
  PageEvent,
  'id' | 'title' | 'url' | 'allDay' | 'startDate' | 'endDate' | 'timezoneAbbr' | 'featured' | 'eventStatus'
>;
export interface MonthDay {
  day: string;
  events: CellEvent[];
  /** How many more events the day has than it shows. */
  more: number;
}
export interface TermOption {
  name: string;
  slug: string;
}
export interface ViewChrome {
  state: ViewState;
  today: string;
  /** The archive's name (a category's or a tag's), when the view is within one. */
  archiveName?: string;
  categories: TermOption[];
  tags: TermOption[];
  feedUrl: string;
}

function searchBar({ state, categories, tags }: ViewChrome): string {
  // The view's plain path: the form's date field says which month, day or start the visitor wants.
  const action = viewUrl({ ...state, search: undefined, filters: {} }, { page: 1, date: undefined, past: false });
  const selected = (list: string[] | undefined, slug: string) => (list?.[0] === slug ? ' selected' : '');
  const select = (name: string, label: string, options: TermOption[], chosen: string[] | undefined) =>
    options.length
      ? `<label for="${name}">${label}</label><select id="${name}" name="${name}"><option value="">All</option>${options
          .map((term) => `<option value="${esc(term.slug)}"${selected(chosen, term.slug)}>${esc(decodeEntities(term.name))}</option>`)
          .join('')}</select>`
      : '';
  const shown = new Set([categories.length && 'tribe_events_cat', tags.length && 'tag']);
  const hidden = filterFields(state)
    .filter(([name]) => !shown.has(name))
    .map(([name, value]) => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`)
    .join('');
  const date = state.display === 'month' ? `${state.date}-01` : (state.date ?? '');
  return `<form class="bar" method="get" action="${esc(action)}" role="search" aria-label="Find events">
<div class="field"><label for="tribe-bar-search">Keyword</label><input id="tribe-bar-search" name="tribe-bar-search" type="search" value="${esc(state.search)}"></div>
<div class="field"><label for="tribe-bar-date">Date</label><input id="tribe-bar-date" name="tribe-bar-date" type="date" value="${esc(date)}"></div>
<div class="field">${select('tribe_events_cat', 'Category', categories, state.filters.categories)}</div>
<div class="field">${select('tag', 'Tag', tags, state.filters.tags)}</div>${hidden}
<button type="submit">Find events</button>
</form>`;
}

function viewSwitch({ state }: ViewChrome): string {
  const views: [string, string, boolean][] = [
    ['List', viewUrl(state, { display: 'list', page: 1, past: false, date: undefined }), state.display === 'list'],
    ['Month', viewUrl(state, { display: 'month', date: state.display === 'day' ? state.date : undefined }), state.display === 'month'],
    ['Day', viewUrl(state, { display: 'day', date: state.display === 'day' ? state.date : undefined }), state.display === 'day'],
  ];
  return `<nav class="views" aria-label="Views"><ul>${views
    .map(([label, href, current]) => `<li><a href="${esc(href)}"${current ? ' aria-current="page"' : ''}>${label}</a></li>`)
    .join('')}</ul></nav>`;
}

/** What the view is narrowed to, and a link back to everything. */
function activeFilters({ state }: ViewChrome): string {
  const parts: string[] = [];
  if (state.search) parts.push(`keyword “${esc(state.search)}”`);
  if (state.filters.categories) parts.push(`category ${esc(state.filters.categories.join(', '))}`);
  if (state.filters.tags) parts.push(`tag ${esc(state.filters.tags.join(', '))}`);
  if (state.filters.venue) parts.push(`venue ${esc(state.filters.venue.join(', '))}`);
  if (state.filters.organizer) parts.push(`organizer ${esc(state.filters.organizer.join(', '))}`);
  if (!parts.length) return '';
  const clear = viewUrl({ ...state, search: undefined, filters: {} });
  return `<p class="filters">Showing events matching ${parts.join(', ')}. <a href="${esc(clear)}">Clear</a></p>`;
}

/** Previous, today and next, as links (rel prev/next). */
function stepper(
  label: string,
  prev: string | undefined,
  today: string | undefined,
  next: string | undefined,
  names: [string, string, string],
) {
  const links = [
    prev && `<a rel="prev" href="${esc(prev)}">${names[0]}</a>`,
    today && `<a href="${esc(today)}">${names[1]}</a>`,
    next && `<a rel="next" href="${esc(next)}">${names[2]}</a>`,
  ].filter(Boolean);
  return `<nav class="stepper" aria-label="${esc(label)}">${links.join(' ')}</nav>`;
}

function frame(chrome: ViewChrome, heading: string, body: string, steps: string, count?: string): string {
  const archive = chrome.archiveName
    ? `<p class="archive">${chrome.state.archive?.kind === 'tag' ? 'Tag' : 'Category'}: ${esc(decodeEntities(chrome.archiveName))}</p>\n`
    : '';
  return `${archive}<h1>${esc(heading)}</h1>
${searchBar(chrome)}
${viewSwitch(chrome)}
${activeFilters(chrome)}${steps}
<p class="count">${count ? `${count} · ` : ''}<a href="${esc(chrome.feedUrl)}">Subscribe (iCalendar)</a></p>
${body}
${steps}`;
}

const clock = (wall: string) => wall.slice(11, 16);
function cellTime(event: CellEvent, day: string): string {
  if (event.allDay) return 'All day';
  if (event.startDate.slice(0, 10) < day) return 'Continues';
  return `${clock(event.startDate)}${event.timezoneAbbr ? ` ${event.timezoneAbbr}` : ''}`;
}

function monthCell(chrome: ViewChrome, { day, events, more }: MonthDay): string {
  const { state, today } = chrome;
  const classes = ['day'];
  if (day.slice(0, 7) !== state.date) classes.push('other');
  if (!events.length) classes.push('empty');
  const dayUrl = viewUrl(state, { display: 'day', date: day });
  const items = events
    .map(
      (event) =>
        `<li${event.featured ? ' class="featured"' : ''}><a href="${esc(event.url)}"><span class="time">${esc(cellTime(event, day))}</span> ${statusLabel(event)}${esc(event.title)}</a></li>`,
    )
    .join('');
  return `<td class="${classes.join(' ')}"${day === today ? ' aria-current="date"' : ''}>
<a class="date" href="${esc(dayUrl)}"><span class="num" aria-hidden="true">${Number(day.slice(8))}</span><span class="full">${esc(dayLabel(day))}</span></a>${
    items ? `<ul>${items}</ul>` : ''
  }${more ? `<a class="more" href="${esc(dayUrl)}">+${more} more<span class="full"> on ${esc(dayLabel(day))}</span></a>` : ''}</td>`;
}

export function monthView(chrome: ViewChrome, days: MonthDay[]): string {
  const { state } = chrome;
  const month = state.date!;
  const weeks: string[] = [];
  for (let i = 0; i < days.length; i += 7)
    weeks.push(
      `<tr>${days
        .slice(i, i + 7)
        .map((day) => monthCell(chrome, day))
        .join('')}</tr>`,
    );
  const head = days
    .slice(0, 7)
    .map(({ day }) => `<th scope="col" abbr="${esc(weekdayLong(day))}">${esc(weekdayShort(day))}</th>`)
    .join('');
  const grid = `<table class="month-grid">
<caption class="full">Events in ${esc(monthLabel(month))}</caption>
<thead><tr>${head}</tr></thead>
<tbody>
${weeks.join('\n')}
</tbody>
</table>`;
  const steps = stepper(
    'Months',
    viewUrl(state, { date: addMonths(month, -1) }),
    viewUrl(state, { date: undefined }),
    viewUrl(state, { date: addMonths(month, 1) }),
    [`‹ ${monthLabel(addMonths(month, -1))}`, 'This month', `${monthLabel(addMonths(month, 1))} ›`],
  );
  const empty = days.every((day) => !day.events.length) ? '<p class="empty">No events this month.</p>\n' : '';
  return frame(chrome, monthLabel(month), `${empty}${grid}`, steps);
}

export function dayView(chrome: ViewChrome, events: PageEvent[], total: number): string {
  const { state } = chrome;
  const day = state.date!;
  const items = events.length
    ? `<ol class="events">\n${events.map(eventCard).join('\n')}\n</ol>`
    : '<p class="empty">No events on this day.</p>';
  const rest =
    total > events.length
      ? `\n<p class="more">${total - events.length} more on this day: <a href="${esc(viewUrl(state, { display: 'list', page: 1, past: false, date: day }))}">the list from this day</a>.</p>`
      : '';
  const steps = stepper(
    'Days',
    viewUrl(state, { date: addDays(day, -1) }),
    viewUrl(state, { date: undefined }),
    viewUrl(state, { date: addDays(day, 1) }),
    ['‹ Previous day', 'Today', 'Next day ›'],
  );
  return frame(chrome, dayLabel(day), items + rest, steps, `${total} event${total === 1 ? '' : 's'}`);
}

export function listView(chrome: ViewChrome, events: PageEvent[], paging: { total: number; totalPages: number }): string {
  const { state } = chrome;
  const { page } = state;
  // The original's list: "previous" goes back in time (to the past list from the first upcoming
  // page), "next" forward (to the upcoming list from the first past page).
  const prev = state.past
    ? page < paging.totalPages
      ? viewUrl(state, { page: page + 1 })
      : undefined
    : page > 1
      ? viewUrl(state, { page: page - 1 })
      : viewUrl(state, { past: true, page: 1 });
  const next = state.past
    ? page > 1
      ? viewUrl(state, { page: page - 1 })
      : viewUrl(state, { past: false, page: 1 })
    : page < paging.totalPages
      ? viewUrl(state, { page: page + 1 })
      : undefined;
  const today = state.past || page > 1 || state.date ? viewUrl(state, { past: false, page: 1, date: undefined }) : undefined;
  const steps = stepper('Pages', prev, today, next, ['‹ Previous events', 'Upcoming', 'Next events ›']);
  const heading = state.past ? 'Past events' : state.date ? `Events from ${dayLabel(state.date)}` : 'Upcoming events';
  const items = events.length
    ? `<ol class="events">\n${events.map(eventCard).join('\n')}\n</ol>`
    : `<p class="empty">No ${state.past ? 'past' : 'upcoming'} events.</p>`;
  const count = `${paging.total} event${paging.total === 1 ? '' : 's'}${paging.totalPages > 1 ? ` · page ${page} of ${paging.totalPages}` : ''}`;
  return frame(chrome, heading, items, steps, count);
}
