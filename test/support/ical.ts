// iCalendar feeds as a subscribing client reads them: parsed by ical.js (Mozilla's), an independent parser.
import ICAL from 'ical.js';

export interface ParsedFeed {
  calendar: ICAL.Component;
  events: ICAL.Component[];
}

/** A feed parsed with its own VTIMEZONEs only (none left from another feed, none built in). */
export function parseFeed(text: string): ParsedFeed {
  const calendar = new ICAL.Component(ICAL.parse(text));
  ICAL.TimezoneService.reset();
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(vtimezone));
  return { calendar, events: calendar.getAllSubcomponents('vevent') };
}
