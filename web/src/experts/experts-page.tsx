import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import SearchIcon from "@mui/icons-material/Search";
import { ApiError } from "../shared/api-client.ts";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { zoneLabel } from "../shared/local-time.ts";
import { ExpertCard } from "./expert-card.tsx";
import { useExperts } from "./expert-queries.ts";
import { useListingChoices, useTypedChoice } from "./listing-address.ts";
import { filtersSet, withoutFilters } from "./listing-choices.ts";
import { ListingToolbar } from "./listing-toolbar.tsx";

/** Why the listing could not load: the API's message for a request it refused (a price range the wrong way round, say). */
const loadFailure = (error: unknown) => (error instanceof ApiError && error.status === 400 ? error.message : "Couldn't load experts.");

/** The next page of the listing on request, while the API says more follow; a page that could not load says why. */
function MoreExperts({ experts }: { experts: ReturnType<typeof useExperts> }) {
  if (!experts.data?.more) return null;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 2, mt: 3 }}>
      {experts.isFetchNextPageError && <Alert severity="error">{loadFailure(experts.error)}</Alert>}
      <Button variant="outlined" disabled={experts.isFetchingNextPage} onClick={() => void experts.fetchNextPage()}>
        {experts.isFetchingNextPage ? "Loading more experts..." : "Show more experts"}
      </Button>
    </Box>
  );
}

export function ExpertsPage() {
  useDocumentTitle("Find an expert");
  const { choices, change } = useListingChoices();
  // The spec's debounced search: the listing asks once typing has stopped.
  const [search, setSearch] = useTypedChoice(choices.search, (typed) => change({ search: typed }));
  const experts = useExperts(choices);
  const filtered = filtersSet(choices);
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
        sx={{ mb: 2, bgcolor: "background.paper" }}
      />
      <ListingToolbar choices={choices} change={change} />
      {experts.isPending ? (
        <LoadingScreen label="Loading experts..." />
      ) : experts.isLoadingError ? (
        <Alert severity="error">{loadFailure(experts.error)}</Alert>
      ) : experts.data.experts.length === 0 ? (
        filtered ? (
          <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 2 }}>
            <Typography role="status">No experts match these filters.</Typography>
            <Button variant="outlined" onClick={() => change(withoutFilters(choices))}>
              Clear filters
            </Button>
          </Box>
        ) : (
          <Typography role="status">No experts match your search.</Typography>
        )
      ) : (
        <>
          {experts.data.experts.some((e) => e.next_available) && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="listing-zone">
              Openings are shown in {zoneLabel()}.
            </Typography>
          )}
          <Box
            component="section"
            aria-label="Experts"
            aria-busy={experts.isPlaceholderData}
            sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", sm: "repeat(2, 1fr)", lg: "repeat(4, 1fr)" } }}
          >
            {experts.data.experts.map((expert) => (
              <ExpertCard key={expert.id} expert={expert} />
            ))}
          </Box>
          <MoreExperts experts={experts} />
        </>
      )}
    </Page>
  );
}
