// A bar chart drawn in SVG with no numbers in its text: the months are labelled, but which bar is
// tallest shows only in the picture. The vision task reads it; a model that sees only the element
// list and the page text cannot.
import { html, notFound, page, type SiteRequest, type SiteResponse } from './html.js';

export const VISITS = [
  { month: 'January', visitors: 3100 },
  { month: 'February', visitors: 2700 },
  { month: 'March', visitors: 4200 },
  { month: 'April', visitors: 6900 },
  { month: 'May', visitors: 5100 },
  { month: 'June', visitors: 3800 },
];

const HEIGHT = 300;
const BAR = 60;

export function createChart() {
  return {
    handle(req: SiteRequest): SiteResponse {
      if (req.url.pathname !== '/chart/') return notFound();
      const top = Math.max(...VISITS.map((v) => v.visitors));
      const bars = VISITS.map((v, i) => {
        const h = Math.round((v.visitors / top) * (HEIGHT - 40));
        const x = 20 + i * (BAR + 20);
        return (
          `<rect x="${x}" y="${HEIGHT - 20 - h}" width="${BAR}" height="${h}" fill="#3b6ea8"></rect>` +
          `<text x="${x + BAR / 2}" y="${HEIGHT - 4}" text-anchor="middle" font-size="12">${v.month.slice(0, 3)}</text>`
        );
      }).join('');
      const width = 20 + VISITS.length * (BAR + 20);
      return html(
        page(
          'Visitors by month',
          `<h1>Museum visitors, first half of the year</h1>` +
            `<svg role="img" aria-label="Bar chart of visitors by month" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}">` +
            `<line x1="10" y1="${HEIGHT - 20}" x2="${width}" y2="${HEIGHT - 20}" stroke="#333"></line>${bars}</svg>`,
        ),
      );
    },
  };
}
