import { useMemo } from "react";
import { DateTime } from "luxon";
import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";

type ZoneOption = { zone: string; label: string; offset: number };

/** Every zone the browser knows, each with its current offset, sorted by offset. */
export function timezoneOptions(now = DateTime.now()): ZoneOption[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];
  const all = zones.includes("UTC") ? zones : ["UTC", ...zones];
  return all
    .map((zone) => {
      const at = now.setZone(zone);
      return { zone, label: `(UTC${at.toFormat("ZZ")}) ${zone}`, offset: at.offset };
    })
    .sort((a, b) => a.offset - b.offset || a.zone.localeCompare(b.zone));
}

/** An IANA zone picked by name or offset (the schedule's zone, the zone mails give times in). */
export function TimezoneField({
  value,
  onChange,
  label,
  helperText,
  maxWidth,
}: {
  value: string;
  onChange: (zone: string) => void;
  label: string;
  helperText?: string;
  maxWidth?: number;
}) {
  const zones = useMemo(() => {
    const known = timezoneOptions();
    // A zone saved from another browser that this one does not list stays the one shown.
    return !value || known.some((z) => z.zone === value) ? known : [{ zone: value, label: value, offset: 0 }, ...known];
  }, [value]);
  const option = zones.find((z) => z.zone === value) ?? null;
  return (
    <Autocomplete
      options={zones}
      value={option}
      onChange={(_e, next) => next && onChange(next.zone)}
      getOptionLabel={(o) => o.label}
      isOptionEqualToValue={(a, b) => a.zone === b.zone}
      renderInput={(params) => <TextField {...params} label={label} helperText={helperText} />}
      sx={maxWidth ? { maxWidth } : undefined}
    />
  );
}
