import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Link,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link as RouterLink, useSearchParams } from "react-router-dom";
import { ReferenceField, TextField as RaTextField, Title, useCreatePath, useDataProvider, useGetList, useGetOne } from "react-admin";
import { SESSION_LENGTHS_MINUTES, clockText, type CalendarAsOfReply, type HeldTimeReply } from "@booking/contracts";
import { BookingStatusChip } from "../bookings/booking-status.tsx";
import { eventLabel } from "../bookings/booking-record.ts";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { adminReader, consoleMoment } from "../fields/date-time-field.tsx";
import { expertName, type Expert } from "../experts/expert-record.ts";
import { calendarAtPath, localDateIn, type CalendarAtParams } from "./calendar-at-path.ts";

// An expert's calendar as it stood at an instant (GET /admin/experts/{id}/calendar/as-of): which
// times of a date could be booked then, and which bookings held which times. The one-screen
// answer to "the creator says the slot was free at 10:02". The question lives in the address.

const pad = (n: number) => String(n).padStart(2, "0");

/** An instant as a datetime-local input shows it: the browser's wall clock, to the millisecond (a request and its payment often share a second). */
function localInput(instant: string): string {
  const d = new Date(instant);
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, "0")}`;
  return `${day}T${time}`;
}

/** A wall-clock time in the expert's timezone, in the admin's locale (the page names the zone). */
const clock = (instant: string, timezone: string | null) => clockText(instant, { locale: adminReader().locale, zone: timezone ?? "UTC" });

function ExpertPicker({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const [input, setInput] = useState("");
  const { data: chosen } = useGetOne<Expert>("experts", { id: value }, { enabled: !!value });
  const { data: found = [], isPending } = useGetList<Expert>("experts", {
    filter: input ? { q: input } : {},
    pagination: { page: 1, perPage: 20 },
    sort: { field: "last_name", order: "ASC" },
  });
  const options = chosen && !found.some((e) => e.id === chosen.id) ? [chosen, ...found] : found;
  return (
    <Autocomplete
      sx={{ minWidth: 260 }}
      options={options}
      value={options.find((e) => e.id === value) ?? null}
      loading={isPending}
      getOptionLabel={(e) => `${expertName(e)} · ${e.title}`}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(all) => all}
      onInputChange={(_e, text, reason) => reason === "input" && setInput(text)}
      onChange={(_e, e) => onChange(e ? String(e.id) : "")}
      renderInput={(params) => <TextField {...params} label="Expert" required />}
    />
  );
}

/** The question as the admin edits it, applied to the address on "Show". */
function Question({ params, onAsk }: { params: CalendarAtParams; onAsk: (p: CalendarAtParams) => void }) {
  const [expert, setExpert] = useState(params.expert ?? "");
  const [instant, setInstant] = useState(localInput(params.at ?? new Date().toISOString()));
  const [date, setDate] = useState(params.date ?? "");
  const [length, setLength] = useState(params.length ?? 60);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const at = new Date(instant);
    if (!expert || Number.isNaN(at.getTime())) return;
    onAsk({ expert, at: at.toISOString(), date: date || undefined, on: date ? undefined : params.on, length });
  };
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack
          component="form"
          onSubmit={submit}
          direction={{ xs: "column", md: "row" }}
          spacing={2}
          sx={{ alignItems: { md: "center" } }}
          aria-label="Which calendar, when"
        >
          <ExpertPicker value={expert} onChange={setExpert} />
          <TextField
            type="datetime-local"
            label={`Instant (your time, ${Intl.DateTimeFormat().resolvedOptions().timeZone})`}
            value={instant}
            onChange={(e) => setInstant(e.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 0.001 } }}
            required
          />
          <TextField
            type="date"
            label="Date (the expert's timezone)"
            value={date}
            onChange={(e) => setDate(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
            helperText="Empty: the date of the instant"
          />
          <TextField
            select
            label="Session length"
            value={length}
            onChange={(e) => setLength(Number(e.target.value))}
            sx={{ minWidth: 140 }}
          >
            {SESSION_LENGTHS_MINUTES.map((m) => (
              <MenuItem key={m} value={m}>
                {m} minutes
              </MenuItem>
            ))}
          </TextField>
          <Button type="submit" variant="contained" sx={{ whiteSpace: "nowrap", flexShrink: 0 }}>
            Show the calendar
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}

function HeldTimes({ held, timezone }: { held: HeldTimeReply[]; timezone: string | null }) {
  const createPath = useCreatePath();
  if (!held.length) return <Typography variant="body2">No booking held a time on this date then.</Typography>;
  return (
    <Table size="small" aria-label="Times held by bookings" data-testid="held-times">
      <TableHead>
        <TableRow>
          <TableCell>Time</TableCell>
          <TableCell>Booking</TableCell>
          <TableCell>Creator</TableCell>
          <TableCell>Status then</TableCell>
          <TableCell>Holds</TableCell>
          <TableCell>Buffers kept free</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {held.map((h) => (
          <TableRow
            key={`${h.booking_id}-${h.holds}`}
            data-testid="held-time"
            data-booking-id={h.booking_id}
            data-start={h.start}
            data-status={h.status}
          >
            <TableCell>
              {clock(h.start, timezone)}–{clock(h.end, timezone)}
            </TableCell>
            <TableCell>
              <Link component={RouterLink} to={createPath({ resource: "bookings", id: h.booking_id, type: "show" })}>
                {h.booking_id}
              </Link>
            </TableCell>
            <TableCell>
              <ReferenceField
                record={{ id: h.booking_id, creator_id: h.creator_id }}
                source="creator_id"
                reference="users"
                link="show"
                emptyText={h.creator_id}
              >
                <RaTextField source="email" />
              </ReferenceField>
            </TableCell>
            <TableCell>
              <BookingStatusChip status={h.status} />
            </TableCell>
            <TableCell>{h.holds === "booking" ? "its time" : "the time it asked to move to"}</TableCell>
            <TableCell>
              {h.buffer_before_minutes} min before, {h.buffer_after_minutes} min after
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Answer({ reply }: { reply: CalendarAsOfReply }) {
  const zone = reply.timezone;
  return (
    <Stack spacing={2} data-testid="calendar-at" data-date={reply.date} data-at={reply.at}>
      <Typography variant="h6" component="h2">
        {reply.date} {zone ? `(${zone})` : ""} as it stood at {consoleMoment(reply.at, "seconds")}{" "}
        <Typography component="code" variant="body2" color="text.secondary">
          {reply.at}
        </Typography>
      </Typography>
      <Typography variant="body2" color="text.secondary" data-testid="calendar-at-folded">
        {reply.last_event
          ? `Folded from the expert's calendar stream: ${reply.events_folded} ` +
            `event${reply.events_folded === 1 ? "" : "s"}, the last ${eventLabel(reply.last_event.type)} ` +
            `(version ${reply.last_event.version}) at ${consoleMoment(reply.last_event.time, "seconds")}.`
          : "No event of the expert's calendar was recorded by then."}
      </Typography>
      {zone ? (
        <Typography variant="body2">
          Rules then: {reply.rules.buffer_before_minutes} min before and {reply.rules.buffer_after_minutes} min after each booking kept
          free; at least {reply.rules.min_notice_hours} hours' notice.
        </Typography>
      ) : (
        <Alert severity="info">The expert had no schedule yet: nothing could be booked.</Alert>
      )}
      {reply.time_off.length ? (
        <Box>
          <Typography variant="subtitle2">Time off on this date</Typography>
          {reply.time_off.map((o) => (
            <Typography key={o.time_off_id} variant="body2" data-testid="time-off">
              {o.start.replace("T", " ")} to {o.end.replace("T", " ")}
              {o.reason ? ` · ${o.reason}` : ""}
            </Typography>
          ))}
        </Box>
      ) : null}
      {reply.external_busy.length ? (
        <Box>
          <Typography variant="subtitle2">Busy in the expert's own calendars (titles are never kept)</Typography>
          {reply.external_busy.map((b) => (
            <Typography key={`${b.calendar_id} ${b.start}`} variant="body2" data-testid="external-busy">
              {clock(b.start, zone)}–{clock(b.end, zone)}
            </Typography>
          ))}
        </Box>
      ) : null}
      <Box>
        <Typography variant="subtitle2" gutterBottom>
          Bookable then, for a {reply.length_minutes}-minute session ({zone ?? "UTC"} times)
        </Typography>
        {reply.bookable.length ? (
          <Stack direction="row" spacing={0.75} useFlexGap sx={{ flexWrap: "wrap" }} data-testid="bookable-times">
            {reply.bookable.map((t) => (
              <Chip
                key={t}
                size="small"
                color="success"
                variant="outlined"
                label={clock(t, zone)}
                title={t}
                data-testid="bookable-time"
                data-time={t}
              />
            ))}
          </Stack>
        ) : (
          <Typography variant="body2" data-testid="nothing-bookable">
            Nothing could be booked on this date then.
          </Typography>
        )}
      </Box>
      <Box>
        <Typography variant="subtitle2" gutterBottom>
          Held by bookings then
        </Typography>
        <HeldTimes held={reply.held} timezone={zone} />
      </Box>
    </Stack>
  );
}

/** The answer for the question in the address; a date given as `on` is read in the expert's timezone once that is known. */
function CalendarAt({ params }: { params: Required<Pick<CalendarAtParams, "expert" | "at">> & CalendarAtParams }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [zone, setZone] = useState<string | null>(null);
  const date = params.date ?? (params.on && zone ? localDateIn(params.on, zone) : undefined);
  const { data, error, isPending } = useQuery({
    queryKey: ["experts", "calendar-as-of", params.expert, params.at, date, params.length],
    queryFn: () => dataProvider.calendarAsOf(params.expert, { at: params.at, date, length_minutes: params.length }),
  });
  useEffect(() => {
    if (data?.timezone) setZone(data.timezone);
  }, [data?.timezone]);
  if (isPending) return <CircularProgress aria-label="Folding the expert's calendar" />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  return <Answer reply={data} />;
}

export function CalendarAtPage() {
  const [search, setSearch] = useSearchParams();
  const length = Number(search.get("length"));
  const params: CalendarAtParams = {
    expert: search.get("expert") ?? undefined,
    at: search.get("at") ?? undefined,
    date: search.get("date") ?? undefined,
    on: search.get("on") ?? undefined,
    length: (SESSION_LENGTHS_MINUTES as readonly number[]).includes(length) ? length : undefined,
  };
  const ask = (p: CalendarAtParams) => setSearch(new URLSearchParams(calendarAtPath(p).split("?")[1]));
  const { expert, at } = params;
  return (
    <Box sx={{ py: 2 }}>
      <Title title="Calendar at an instant" />
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          The expert's calendar folded from its event stream up to the instant, with the engine's availability rules read as of then.
        </Typography>
        <Question key={search.toString()} params={params} onAsk={ask} />
        {expert && at ? (
          <CalendarAt key={expert} params={{ ...params, expert, at }} />
        ) : (
          <Typography variant="body2">Choose an expert and an instant.</Typography>
        )}
      </Stack>
    </Box>
  );
}
