// A table spread over two pages: the city library's branches, five rows a page, with a "Next page"
// link. A checker compares the rows the agent reports with BRANCHES.
import { escapeHtml, html, notFound, page, type SiteRequest, type SiteResponse } from './html.js';

export const BRANCHES = [
  { Branch: 'Central', District: 'Old Town', Books: '182,400', Opened: '1911' },
  { Branch: 'Riverside', District: 'Docklands', Books: '64,250', Opened: '1968' },
  { Branch: 'Hillcrest', District: 'North Hill', Books: '41,900', Opened: '1974' },
  { Branch: 'Meadow Lane', District: 'Greenfield', Books: '38,120', Opened: '1982' },
  { Branch: 'Harbour', District: 'Docklands', Books: '29,875', Opened: '1990' },
  { Branch: 'Station Road', District: 'Eastgate', Books: '52,010', Opened: '2001' },
  { Branch: 'Oakwood', District: 'West End', Books: '33,640', Opened: '2009' },
  { Branch: 'Market Square', District: 'Old Town', Books: '27,300', Opened: '2016' },
];

const PER_PAGE = 5;

export function createBranches() {
  return {
    handle(req: SiteRequest): SiteResponse {
      if (req.url.pathname !== '/branches/') return notFound();
      const pages = Math.ceil(BRANCHES.length / PER_PAGE);
      const number = Number(req.url.searchParams.get('page') ?? '1');
      if (!Number.isInteger(number) || number < 1 || number > pages) return notFound();
      const rows = BRANCHES.slice((number - 1) * PER_PAGE, number * PER_PAGE);
      const columns = Object.keys(BRANCHES[0]) as Array<keyof (typeof BRANCHES)[number]>;
      const table =
        `<table id="branches"><thead><tr>${columns.map((c) => `<th>${c}</th>`).join('')}</tr></thead><tbody>` +
        rows.map((r) => `<tr>${columns.map((c) => `<td>${escapeHtml(r[c])}</td>`).join('')}</tr>`).join('') +
        '</tbody></table>';
      const nav = [
        number > 1 ? `<a href="/branches/?page=${number - 1}">Previous page</a>` : '',
        number < pages ? `<a href="/branches/?page=${number + 1}">Next page</a>` : '',
      ].join(' ');
      return html(
        page(
          `Library branches (page ${number} of ${pages})`,
          `<h1>Library branches</h1><p>Page ${number} of ${pages}</p>${table}<p>${nav}</p>`,
        ),
      );
    },
  };
}
