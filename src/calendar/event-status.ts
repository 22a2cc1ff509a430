// Whether an event takes place as announced: The Events Calendar's "Event Status"
// (_tribe_events_status and _tribe_events_status_reason). A cancelled or postponed event is kept and
// shown with its label and reason, rather than trashed, so that those who saw it learn it changed.
// Each format says it in its own words: schema.org's eventStatus in JSON-LD, RFC 5545's STATUS in
// iCalendar and ActivityPub (ical:status, as Mobilizon reads it).

/** The stored values, TEC's own spelling. */
export const EVENT_STATUSES = ['scheduled', 'canceled', 'postponed'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** The longest reason kept: a sentence or two shown beside the label. */
export const MAX_STATUS_REASON = 500;

export const isEventStatus = (value: unknown): value is EventStatus => EVENT_STATUSES.includes(value as EventStatus);

/** A stored value as an EventStatus (anything unknown reads as scheduled, TEC's default). */
export const eventStatusOf = (stored: string): EventStatus => (isEventStatus(stored) ? stored : 'scheduled');

/** The label shown before the title (TEC's words); none for a scheduled event. */
export function eventStatusLabel(status: string): string | null {
  switch (eventStatusOf(status)) {
    case 'canceled':
      return 'Canceled';
    case 'postponed':
      return 'Postponed';
    default:
      return null;
  }
}

/** schema.org's EventStatusType, as TEC's JSON-LD writes it. */
export function schemaOrgEventStatus(status: string): string {
  switch (eventStatusOf(status)) {
    case 'canceled':
      return 'https://schema.org/EventCancelled';
    case 'postponed':
      return 'https://schema.org/EventPostponed';
    default:
      return 'https://schema.org/EventScheduled';
  }
}

/**
 * RFC 5545's STATUS of a VEVENT (3.8.1.11: TENTATIVE, CONFIRMED or CANCELLED). A postponed event has
 * no new date yet: it is no longer confirmed at the time it shows, but not called off either, which
 * is what TENTATIVE says ("indicates event is tentative"); calendar apps keep it and mark it so.
 */
export function icalEventStatus(status: string): 'CONFIRMED' | 'CANCELLED' | 'TENTATIVE' {
  switch (eventStatusOf(status)) {
    case 'canceled':
      return 'CANCELLED';
    case 'postponed':
      return 'TENTATIVE';
    default:
      return 'CONFIRMED';
  }
}
