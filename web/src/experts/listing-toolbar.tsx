import {
  CURRENCIES,
  LISTING_SORT_LABELS,
  LISTING_SORTS,
  SESSION_LENGTHS_MINUTES,
  type Currency,
  type ListingSort,
} from "@booking/contracts";
import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import InputAdornment from "@mui/material/InputAdornment";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import { currencySymbol } from "../shared/money.ts";
import { useTypedChoice } from "./listing-address.ts";
import type { ListingChoices } from "./listing-choices.ts";

// The experts listing's sort and filters (issue 30.5), under the search box. Native selects: a phone
// shows its own picker, and every control is named by its visible label. The toolbar wraps on a phone.

const field = { bgcolor: "background.paper" } as const;

/** A price bound in whole units of the chosen currency; the address follows once typing stops. */
function PriceBound({
  label,
  inAddress,
  currency,
  write,
}: {
  label: string;
  inAddress: string;
  currency: Currency;
  write: (typed: string) => void;
}) {
  const [typed, type] = useTypedChoice(inAddress, write);
  return (
    <TextField
      size="small"
      type="number"
      label={label}
      value={typed}
      onChange={(e) => type(e.target.value)}
      slotProps={{
        htmlInput: { min: 0, step: 1, inputMode: "numeric" },
        input: { startAdornment: <InputAdornment position="start">{currencySymbol(currency)}</InputAdornment> },
      }}
      sx={{ ...field, flex: "1 1 0", minWidth: 0 }}
    />
  );
}

export function ListingToolbar({ choices, change }: { choices: ListingChoices; change: (next: Partial<ListingChoices>) => void }) {
  return (
    <Box role="group" aria-label="Sort and filter experts" sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 2, mb: 3 }}>
      <TextField
        select
        size="small"
        label="Sort by"
        value={choices.sort}
        onChange={(e) => change({ sort: e.target.value as ListingSort })}
        slotProps={{ select: { native: true } }}
        sx={{ ...field, flex: "1 1 150px" }}
      >
        {LISTING_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {LISTING_SORT_LABELS[sort]}
          </option>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Session length"
        value={choices.lengthMinutes === null ? "" : String(choices.lengthMinutes)}
        onChange={(e) => change({ lengthMinutes: e.target.value ? (Number(e.target.value) as ListingChoices["lengthMinutes"]) : null })}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        sx={{ ...field, flex: "1 1 150px" }}
      >
        <option value="">Any length</option>
        {SESSION_LENGTHS_MINUTES.map((minutes) => (
          <option key={minutes} value={String(minutes)}>
            {minutes} min
          </option>
        ))}
      </TextField>
      <Box role="group" aria-label="Price range" sx={{ display: "flex", gap: 1, flex: "2 1 300px" }}>
        <PriceBound label="Min price" inAddress={choices.minPrice} currency={choices.currency} write={(minPrice) => change({ minPrice })} />
        <PriceBound label="Max price" inAddress={choices.maxPrice} currency={choices.currency} write={(maxPrice) => change({ maxPrice })} />
        <TextField
          select
          size="small"
          label="Currency"
          value={choices.currency}
          onChange={(e) => change({ currency: e.target.value as Currency })}
          slotProps={{ select: { native: true } }}
          sx={{ ...field, flex: "0 0 88px" }}
        >
          {CURRENCIES.map((currency) => (
            <option key={currency} value={currency}>
              {currency}
            </option>
          ))}
        </TextField>
      </Box>
      <FormControlLabel
        control={<Switch checked={choices.thisWeek} onChange={(e) => change({ thisWeek: e.target.checked })} />}
        label="Available this week"
        sx={{ mr: 0 }}
      />
    </Box>
  );
}
