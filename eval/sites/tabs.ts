// A link that opens in a new tab: /tabs/ lists a report behind a target=_blank link; the report
// page, /tabs/report, holds a reference made afresh for each start of the sites, so only an agent
// that followed the link into the new tab can answer with it.
import { randomInt } from 'node:crypto';
import { html, notFound, page, type SiteRequest, type SiteResponse } from './html.js';

export function createTabs() {
  const reference = `R-${randomInt(100_000, 1_000_000)}`;
  let reportViews = 0;
  return {
    reference,
    /** How often the report page was loaded. */
    get reportViews() {
      return reportViews;
    },
    handle(req: SiteRequest): SiteResponse {
      if (req.url.pathname === '/tabs/')
        return html(
          page(
            'Annual reports',
            '<h1>Annual reports</h1><p>The report opens in a new tab.</p>' +
              '<p><a href="/tabs/report" target="_blank" rel="noopener">Open the annual report</a></p>',
          ),
        );
      if (req.url.pathname === '/tabs/report') {
        reportViews++;
        return html(page('Annual report', `<h1>Annual report</h1><p>Report reference: ${reference}</p>`));
      }
      return notFound();
    },
  };
}
