// A stable description of the element a step acted on, kept beside its number: element numbers
// change whenever the page does, so a later replay finds the element again by these attributes.
import type { Observation } from './observe.js';

export interface ElementLocator {
  tag: string;
  /** The frame's number when the element is in an embedded frame. */
  frame?: number;
  type?: string;
  role?: string;
  /** The name attribute. */
  name?: string;
  /** The accessible name, label or visible text the listing shows. */
  label?: string;
  href?: string;
}

/** The locator of the element `args.element` names in the observation the step was decided on; null for none. */
export function locatorOf(observation: Observation, args: Record<string, unknown>): ElementLocator | null {
  if (typeof args.element !== 'number') return null;
  const e = observation.elements.find((el) => el.id === args.element);
  if (!e) return null;
  const locator: ElementLocator = {
    tag: e.tag,
    frame: e.frame,
    type: e.type,
    role: e.role,
    name: e.name,
    label: e.label || undefined,
    href: e.href,
  };
  // Absent attributes are left out, not stored as null.
  return Object.fromEntries(Object.entries(locator).filter(([, v]) => v !== undefined)) as ElementLocator;
}
