import { useState } from "react";
import { DateTime } from "luxon";
import { CALENDAR_GRID_DAYS, dayText, monthText } from "@booking/contracts";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import ChevronLeft from "@mui/icons-material/ChevronLeft";
import ChevronRight from "@mui/icons-material/ChevronRight";
import { viewerLocale } from "./viewer-locale.ts";

const WEEKDAY_HEADINGS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The 42 days (six Monday-first weeks) shown for the month of `month`. */
export function calendarDays(month: DateTime): DateTime[] {
  const first = month.startOf("month");
  const start = first.minus({ days: first.weekday - 1 }); // luxon: Monday = 1
  return Array.from({ length: CALENDAR_GRID_DAYS }, (_, i) => start.plus({ days: i }));
}

/**
 * A month of days, Monday first. `today` and the selectable days are calendar days (yyyy-MM-dd)
 * in the viewer's zone; months outside [firstMonth, lastMonth] cannot be reached.
 */
/** The first day from `from` to `to` (ISO dates) that may be chosen, or null. */
function firstSelectable(from: string, to: string, isSelectable: (day: string) => boolean): string | null {
  for (let day = DateTime.fromISO(from); day.toISODate()! <= to; day = day.plus({ days: 1 }))
    if (isSelectable(day.toISODate()!)) return day.toISODate()!;
  return null;
}

export function MonthCalendar(props: {
  today: string;
  selected: string | null;
  onSelect: (day: string) => void;
  isSelectable: (day: string) => boolean;
  lastDay: string;
  label?: string;
}) {
  const today = DateTime.fromISO(props.today);
  const firstMonth = today.startOf("month");
  const lastMonth = DateTime.fromISO(props.lastDay).startOf("month");
  // Opens on the chosen day's month, else the first month with a day to choose (issue 27.16: it
  // showed November while only December days were bookable).
  const [month, setMonth] = useState(() =>
    DateTime.fromISO(props.selected ?? firstSelectable(props.today, props.lastDay, props.isSelectable) ?? props.today).startOf("month"),
  );
  const days = calendarDays(month);
  return (
    <Box role="group" aria-label={props.label ?? "Choose a date"} sx={{ maxWidth: 380 }}>
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", mb: 1 }}>
        <IconButton aria-label="Previous month" onClick={() => setMonth(month.minus({ months: 1 }))} disabled={month <= firstMonth}>
          <ChevronLeft />
        </IconButton>
        <Typography component="h3" sx={{ fontWeight: 700 }} aria-live="polite">
          {monthText(month.toFormat("yyyy-MM"), viewerLocale())}
        </Typography>
        <IconButton aria-label="Next month" onClick={() => setMonth(month.plus({ months: 1 }))} disabled={month >= lastMonth}>
          <ChevronRight />
        </IconButton>
      </Box>
      <Box sx={{ display: "grid", gridTemplateColumns: "repeat(7, 1fr)", gap: 0.5, textAlign: "center" }}>
        {WEEKDAY_HEADINGS.map((d) => (
          <Typography key={d} variant="caption" aria-hidden="true" sx={{ fontWeight: 700, color: "text.secondary" }}>
            {d}
          </Typography>
        ))}
        {days.map((day) => {
          const iso = day.toISODate()!;
          const inMonth = day.month === month.month;
          const selectable = props.isSelectable(iso);
          const selected = props.selected === iso;
          return (
            <ButtonBase
              key={iso}
              data-day={iso}
              onClick={() => props.onSelect(iso)}
              disabled={!selectable}
              aria-pressed={selected}
              aria-label={dayText(iso, viewerLocale())}
              sx={{
                height: 40,
                borderRadius: 2,
                fontWeight: selected ? 700 : 500,
                bgcolor: selected ? "primary.main" : selectable ? "#ede7f6" : "transparent",
                color: selected ? "#fff" : selectable ? "primary.main" : inMonth ? "#6b6b76" : "#8a8a94",
                outlineOffset: 2,
                "&.Mui-focusVisible": { outline: "3px solid #ff9800" },
                "&:hover": selectable && !selected ? { bgcolor: "#d1c4e9" } : undefined,
              }}
            >
              {day.day}
            </ButtonBase>
          );
        })}
      </Box>
    </Box>
  );
}
