import { useEffect, useState } from "react";
import { TIMERS_MS } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import SearchIcon from "@mui/icons-material/Search";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { ExpertCard } from "./expert-card.tsx";
import { useExperts } from "./expert-queries.ts";

/** The value, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function ExpertsPage() {
  useDocumentTitle("Find an expert");
  const [search, setSearch] = useState("");
  const term = useDebounced(search, TIMERS_MS.searchDebounce);
  const experts = useExperts(term);
  return (
    <Page>
      <Typography variant="h4" component="h1" gutterBottom>
        Find your expert
      </Typography>
      <TextField
        fullWidth
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        // Short enough to show whole in a 390 px phone's field; the label keeps the full wording.
        placeholder="Name, role or expertise"
        slotProps={{
          htmlInput: { "aria-label": "Search for experts by name, role, or expertise" },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon aria-hidden="true" />
              </InputAdornment>
            ),
          },
        }}
        sx={{ mb: 3, bgcolor: "background.paper" }}
      />
      {experts.isPending ? (
        <LoadingScreen label="Loading experts..." />
      ) : experts.isError ? (
        <Alert severity="error">Couldn't load experts.</Alert>
      ) : experts.data.length === 0 ? (
        <Typography role="status">No experts match your search.</Typography>
      ) : (
        <Box
          component="section"
          aria-label="Experts"
          sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", sm: "repeat(2, 1fr)", lg: "repeat(4, 1fr)" } }}
        >
          {experts.data.map((expert) => (
            <ExpertCard key={expert.id} expert={expert} />
          ))}
        </Box>
      )}
    </Page>
  );
}
