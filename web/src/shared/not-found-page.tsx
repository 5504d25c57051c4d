import { Link as RouterLink } from "react-router-dom";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { Page } from "./layout.tsx";
import { useDocumentTitle } from "./document-title.ts";

export function NotFoundPage() {
  useDocumentTitle("Page not found");
  return (
    <Page>
      <Typography variant="h4" component="h1" gutterBottom>
        Page not found
      </Typography>
      <Typography sx={{ mb: 3 }}>There is nothing at this address.</Typography>
      <Button variant="contained" component={RouterLink} to="/">
        Go to the home page
      </Button>
    </Page>
  );
}
