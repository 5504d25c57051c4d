import type { BusyInterval } from "@booking/contracts";
import ICAL from "ical.js";
import { IANAZone } from "luxon";

// The busy times of an expert's own calendar (issue 32): iCalendar text in, merged busy intervals
// over a window out. Only instants leave this module: titles, descriptions and attendees are never
// read, so they can never be kept or logged.

export type BusyTimesOptions = {
  from: string;
  to: string;
  allDayBlocks: boolean;
  /** the expert's zone, for floating times and all-day dates */
  timezone: string;
};
export type BusyTimesResult = { ok: true; busy: BusyInterval[] } | { ok: false; reason: "not_icalendar" | "too_many" };

/**
 * Occurrences and rule candidates one reading may go through; more is refused as too_many. A
 * FREQ=SECONDLY rule, or a rule limited to 30 February that ical.js would search for ever, runs
 * into it instead of holding the server: each step costs ical.js 5 to 35 µs, so at most about
 * 1.5 s. A real calendar needs a small part of it, since series are fast-forwarded to the window.
 */
export const EXPANSION_BUDGET = 50_000;

const DAY_MS = 86_400_000;

type Span = { start: number; end: number };
type Reading = { fromMs: number; toMs: number; expertZone: IanaZone; allDayBlocks: boolean; budgetLeft: number };

class ExpansionBudgetSpent extends Error {}

/** One ICS file, or the calendar objects of a CalDAV REPORT (each a whole VCALENDAR text): their busy times, as one union. */
export function busyTimesOf(icsTexts: readonly string[], options: BusyTimesOptions, maxIntervals: number): BusyTimesResult {
  // The expert's zone is checked where it is chosen; a wrong one here is a bug, not a calendar's fault.
  if (!IANAZone.isValidZone(options.timezone)) throw new RangeError(`not an IANA time zone: ${options.timezone}`);
  const calendars: ICAL.Component[] = [];
  for (const text of icsTexts) {
    const found = calendarsIn(text);
    if (!found) return { ok: false, reason: "not_icalendar" };
    calendars.push(...found);
  }
  const reading: Reading = {
    fromMs: Date.parse(options.from),
    toMs: Date.parse(options.to),
    expertZone: new IanaZone(options.timezone),
    allDayBlocks: options.allDayBlocks,
    budgetLeft: EXPANSION_BUDGET,
  };
  if (Number.isNaN(reading.fromMs) || Number.isNaN(reading.toMs)) throw new RangeError(`not a window: ${options.from} to ${options.to}`);
  const spans: Span[] = [];
  const lentZones: string[] = [];
  try {
    lendMissingZones(calendars, lentZones);
    for (const calendar of calendars) {
      rememberFileZoneOffsets(calendar);
      addCalendarSpans(calendar, reading, spans);
    }
  } catch (error) {
    if (error instanceof ExpansionBudgetSpent) return { ok: false, reason: "too_many" };
    // ical.js reads values lazily: a malformed date or rule surfaces here, not in ICAL.parse.
    return { ok: false, reason: "not_icalendar" };
  } finally {
    for (const tzid of lentZones) ICAL.TimezoneService.remove(tzid);
  }
  const merged = unionOf(spans.filter((span) => span.end > span.start && span.start < reading.toMs && span.end > reading.fromMs));
  if (merged.length > maxIntervals) return { ok: false, reason: "too_many" };
  return { ok: true, busy: merged.map((span) => ({ start: new Date(span.start).toISOString(), end: new Date(span.end).toISOString() })) };
}

/** The VCALENDARs of one text, or null when it is not iCalendar (an HTML login page, JSON, an empty body). */
function calendarsIn(text: string): ICAL.Component[] | null {
  // Some producers (Outlook) start the file with a byte order mark.
  const body = text.replace(/^\uFEFF/, "");
  if (!/^\s*BEGIN:VCALENDAR\b/i.test(body)) return null;
  let parsed: unknown;
  try {
    parsed = ICAL.parse(body);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return null;
  // One calendar parses to a jCal component ["vcalendar", properties, components], several to a list of them.
  const jcals: unknown[] = typeof parsed[0] === "string" ? [parsed] : parsed;
  const calendars: ICAL.Component[] = [];
  for (const jcal of jcals) {
    if (!Array.isArray(jcal) || jcal[0] !== "vcalendar") return null;
    calendars.push(new ICAL.Component(jcal));
  }
  return calendars;
}

/**
 * An IANA zone read through luxon: for a TZID with no VTIMEZONE in the file (some producers leave
 * it out), and for the expert's zone, in which floating times and all-day dates are read. Zones the
 * file defines need nothing: ical.js 2 looks a TZID up in the file's own VTIMEZONEs first.
 */
class IanaZone extends ICAL.Timezone {
  readonly #zone: IANAZone;
  readonly #offsets = new Map<number, number>();

  constructor(tzid: string) {
    super({ tzid });
    this.#zone = IANAZone.create(tzid);
  }

  /** The offset (seconds) at a time's wall clock; ical.js asks for it many times per occurrence. */
  override utcOffset(time: ICAL.Time): number {
    return this.offsetAt(Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second));
  }

  /** The instant (ms) of a wall-clock time given as if it were UTC. */
  instantOf(wallMs: number): number {
    return wallMs - this.offsetAt(wallMs) * 1000;
  }

  private offsetAt(wallMs: number): number {
    let offset = this.#offsets.get(wallMs);
    if (offset === undefined) {
      offset = this.offsetAtWall(wallMs) * 60;
      this.#offsets.set(wallMs, offset);
    }
    return offset;
  }

  /** Minutes; luxon's own reading of a wall time (fixOffset): a time in a spring-forward gap moves forward. */
  private offsetAtWall(wallMs: number): number {
    const guess = this.#zone.offset(wallMs);
    const second = this.#zone.offset(wallMs - guess * 60_000);
    if (second === guess) return guess;
    const third = this.#zone.offset(wallMs - second * 60_000);
    return second === third ? second : Math.min(second, third);
  }
}

/**
 * ical.js works a VTIMEZONE's offset out afresh on every call (40 µs), and calls it many times per
 * occurrence for the same wall time: each zone the file defines remembers its answers for this reading.
 */
function rememberFileZoneOffsets(calendar: ICAL.Component): void {
  for (const definition of calendar.getAllSubcomponents("vtimezone")) {
    const tzid = definition.getFirstPropertyValue("tzid");
    const zone = typeof tzid === "string" ? calendar.getTimeZoneByID(tzid) : null;
    if (!zone) continue;
    const offsetOf = zone.utcOffset.bind(zone);
    const offsets = new Map<number, number>();
    zone.utcOffset = (time: ICAL.Time) => {
      const wallMs = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
      let offset = offsets.get(wallMs);
      if (offset === undefined) {
        offset = offsetOf(time);
        offsets.set(wallMs, offset);
      }
      return offset;
    };
  }
}

/**
 * ical.js falls back to its global TimezoneService for a TZID the file does not define; the IANA
 * zones are lent there for this one reading (synchronous, so no other reading sees them) and
 * taken back by the caller, who is told each one as it is lent.
 */
function lendMissingZones(calendars: readonly ICAL.Component[], lent: string[]): void {
  for (const calendar of calendars) {
    for (const event of calendar.getAllSubcomponents("vevent")) {
      for (const property of event.getAllProperties()) {
        const tzid = property.getParameter("tzid");
        if (typeof tzid !== "string" || calendar.getTimeZoneByID(tzid) || ICAL.TimezoneService.has(tzid)) continue;
        if (!IANAZone.isValidZone(tzid)) continue; // an unknown name is read as floating, in the expert's zone
        ICAL.TimezoneService.register(new IanaZone(tzid), tzid);
        lent.push(tzid);
      }
    }
  }
}

/** Every busy occurrence of one VCALENDAR: each series expanded, each RECURRENCE-ID override read on its own. */
function addCalendarSpans(calendar: ICAL.Component, reading: Reading, spans: Span[]): void {
  const events = calendar.getAllSubcomponents("vevent");
  const overridesByUid = new Map<string, ICAL.Component[]>();
  for (const event of events) {
    if (!event.hasProperty("recurrence-id")) continue;
    const uid = uidOf(event);
    overridesByUid.set(uid, [...(overridesByUid.get(uid) ?? []), event]);
  }
  for (const component of events) {
    if (!component.hasProperty("dtstart")) continue;
    if (component.hasProperty("recurrence-id")) {
      // An override stands for its occurrence wherever it moved to (even into the window from outside it).
      const override = new ICAL.Event(component);
      addOccurrence(override, override.startDate, override.endDate, reading, spans);
      continue;
    }
    // Overrides are related by UID: ical.js would otherwise relate every override in the file to every series.
    const overrides = overridesByUid.get(uidOf(component)) ?? [];
    addSeriesSpans(new ICAL.Event(component, { strictExceptions: true, exceptions: overrides }), overrides.length > 0, reading, spans);
  }
}

function uidOf(event: ICAL.Component): string {
  return String(event.getFirstPropertyValue("uid") ?? "");
}

/** A series' occurrences from its start up to the end of the window (a single event is a series of one). */
function addSeriesSpans(series: ICAL.Event, hasOverrides: boolean, reading: Reading, spans: Span[]): void {
  if (!blocks(series, reading)) return;
  const start = series.startDate;
  if (!series.isRecurring()) {
    // A single event costs no expansion; the file's size bounds how many there are.
    addOccurrence(series, start, null, reading, spans);
    return;
  }
  // DTSTART is always the first occurrence (RFC 5545 3.8.5.3), but ical.js leaves it out when the
  // rule does not match it or there are RDATEs and no RRULE (kewisch/ical.js#294, #534).
  if (!excluded(series, start)) addSeriesOccurrence(series, start, hasOverrides, reading, spans);
  const lengthMs = lengthOf(series);
  // Only a RANGE=THISANDFUTURE override can move an occurrence from before the window into it.
  const unmoved = series.rangeExceptions.length === 0;
  const expansion = series.iterator(fastForwardedStart(series, lengthMs, reading));
  meterRuleCandidates(expansion, reading);
  for (let occurrence = expansion.next(); occurrence; occurrence = expansion.next()) {
    spend(reading);
    const startMs = instantOf(occurrence, reading.expertZone);
    // Occurrences come in order of their original start: none after this one can start in the window.
    if (startMs >= reading.toMs) return;
    // Long over before the window (a day spare for a DURATION counted in wall-clock days).
    if (unmoved && startMs + lengthMs < reading.fromMs - DAY_MS) continue;
    if (occurrence.compare(start) !== 0) addSeriesOccurrence(series, occurrence, hasOverrides, reading, spans);
  }
}

/** One occurrence of a series, unless an override of its own replaces it (read on its own: moved, or cancelled and gone). */
function addSeriesOccurrence(series: ICAL.Event, occurrence: ICAL.Time, hasOverrides: boolean, reading: Reading, spans: Span[]): void {
  if (!hasOverrides) return addOccurrence(series, occurrence, null, reading, spans);
  const { item, startDate, endDate } = series.getOccurrenceDetails(occurrence);
  if (item === series) return addOccurrence(series, occurrence, null, reading, spans);
  // A RANGE=THISANDFUTURE override shifts the later occurrences too; ical.js works out where to.
  if (item.modifiesFuture() && item.recurrenceId.compare(occurrence) !== 0) addOccurrence(item, startDate, endDate, reading, spans);
}

/** Whether an EXDATE removes an occurrence; a DATE one removes any occurrence on that day, as ical.js does. */
function excluded(series: ICAL.Event, occurrence: ICAL.Time): boolean {
  return series.component
    .getAllProperties("exdate")
    .some((property) =>
      property
        .getValues()
        .some((date: unknown) =>
          date instanceof ICAL.Time && date.isDate
            ? date.year === occurrence.year && date.month === occurrence.month && date.day === occurrence.day
            : date instanceof ICAL.Time && date.compare(occurrence) === 0,
        ),
    );
}

/**
 * Whether an event's time is busy: not cancelled; an all-day event only when the expert said all-day
 * events block, and then whatever its TRANSP (Google marks every all-day event free, so the choice
 * would mean nothing there otherwise); any other event unless marked free.
 */
function blocks(event: ICAL.Event, reading: Reading): boolean {
  const status = String(event.component.getFirstPropertyValue("status") ?? "").toUpperCase();
  const transparency = String(event.component.getFirstPropertyValue("transp") ?? "").toUpperCase();
  if (status === "CANCELLED") return false;
  if (event.startDate.isDate) return reading.allDayBlocks;
  return transparency !== "TRANSPARENT";
}

/** One occurrence as a span: a timed one from start to end (end null: start plus the event's length), an all-day one over its dates. */
function addOccurrence(event: ICAL.Event, start: ICAL.Time, end: ICAL.Time | null, reading: Reading, spans: Span[]): void {
  if (!blocks(event, reading)) return;
  const startMs = instantOf(start, reading.expertZone);
  if (start.isDate) {
    const endMs = reading.expertZone.instantOf(Date.UTC(start.year, start.month - 1, start.day + dayCountOf(event)));
    spans.push({ start: startMs, end: endMs });
    return;
  }
  let endTime = end;
  if (!endTime) {
    endTime = start.clone();
    endTime.addDuration(event.duration);
  }
  // No DTEND and no DURATION: ical.js ends it at its start, a zero-length event that blocks nothing.
  spans.push({ start: startMs, end: instantOf(endTime, reading.expertZone) });
}

/** How long each occurrence of a series lasts, about (within a day); never negative. */
function lengthOf(series: ICAL.Event): number {
  return Math.max(series.startDate.isDate ? dayCountOf(series) * DAY_MS : series.duration.toSeconds() * 1000, 0);
}

/** The dates an all-day event covers: DTEND is exclusive, DURATION counts days, neither means one day. */
function dayCountOf(event: ICAL.Event): number {
  const start = event.startDate;
  const dtend = event.component.getFirstPropertyValue("dtend");
  if (dtend instanceof ICAL.Time) {
    return Math.round((Date.UTC(dtend.year, dtend.month - 1, dtend.day) - Date.UTC(start.year, start.month - 1, start.day)) / DAY_MS);
  }
  const duration = event.component.getFirstPropertyValue("duration");
  if (duration instanceof ICAL.Duration) return Math.ceil(duration.toSeconds() / 86_400);
  return 1;
}

/** The instant a time means. UTC and TZID-ed times carry their zone; floating times and dates (local midnight) are in the expert's zone. */
function instantOf(time: ICAL.Time, expertZone: IanaZone): number {
  if (!time.isDate && time.zone !== ICAL.Timezone.localTimezone) return time.toUnixTime() * 1000;
  const { year, month, day } = time;
  return expertZone.instantOf(
    time.isDate ? Date.UTC(year, month - 1, day) : Date.UTC(year, month - 1, day, time.hour, time.minute, time.second),
  );
}

function spend(reading: Reading): void {
  reading.budgetLeft -= 1;
  if (reading.budgetLeft < 0) throw new ExpansionBudgetSpent();
}

/**
 * Inside one next(), ical.js tests rule candidates one by one until one passes the BY* limits (a
 * FREQ=SECONDLY rule limited to February steps through every second of the year), so each
 * candidate is counted against the budget too. The rule iterators are not public in ical.js's types.
 */
function meterRuleCandidates(expansion: ICAL.RecurExpansion, reading: Reading): void {
  const { ruleIterators } = expansion as unknown as { ruleIterators: ICAL.RecurIterator[] };
  for (const iterator of ruleIterators) {
    const passes = iterator.check_contracting_rules.bind(iterator);
    iterator.check_contracting_rules = () => {
      spend(reading);
      return passes();
    };
  }
}

/**
 * Where to start expanding a series that began long before the window. ical.js always expands
 * from DTSTART, so a daily series from 2015 would go through thousands of occurrences on every
 * read. A DAILY, WEEKLY or MONTHLY rule without COUNT repeats with a fixed period of wall-clock
 * days or months, so starting it whole periods later, still before the window, gives the same
 * later occurrences. Everything else (COUNT, RDATE, several rules, YEARLY, a day after the 28th)
 * starts at DTSTART.
 */
function fastForwardedStart(series: ICAL.Event, lengthMs: number, reading: Reading): ICAL.Time {
  const start = series.startDate;
  const rules = series.component.getAllProperties("rrule");
  const rule = rules[0]?.getFirstValue();
  if (rules.length !== 1 || !(rule instanceof ICAL.Recur) || rule.count || series.component.hasProperty("rdate")) return start;
  const interval = rule.interval || 1;
  const periodDays = rule.freq === "DAILY" ? interval : rule.freq === "WEEKLY" ? 7 * interval : 0;
  const monthly = rule.freq === "MONTHLY" && start.day <= 28;
  if (periodDays === 0 && !monthly) return start;
  // The moved start, and the occurrence it stands for, must end before the window: two days spare for zone offsets.
  const clearDays = Math.floor((reading.fromMs - instantOf(start, reading.expertZone) - lengthMs) / DAY_MS) - 2;
  const periods = periodDays > 0 ? Math.floor(clearDays / periodDays) : Math.floor(Math.floor(clearDays / 31) / interval);
  if (periods <= 0) return start;
  const moved = start.clone();
  if (periodDays > 0) {
    moved.adjust(periods * periodDays, 0, 0, 0);
  } else {
    const monthIndex = moved.year * 12 + (moved.month - 1) + periods * interval;
    moved.year = Math.floor(monthIndex / 12);
    moved.month = (monthIndex % 12) + 1;
  }
  return moved;
}

/** Busy times from one calendar are a union: sorted, and merged where they overlap or touch. */
function unionOf(spans: readonly Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of spans.toSorted((a, b) => a.start - b.start || a.end - b.end)) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
