import Typography from "@mui/material/Typography";
import { useDocumentTitle } from "../shared/document-title.ts";
import { Page } from "../shared/layout.tsx";
import { TermsSections } from "./terms-text.tsx";

export function TermsPage() {
  useDocumentTitle("Terms and Conditions");
  return (
    <Page>
      <Typography variant="h3" component="h1" gutterBottom sx={{ fontSize: { xs: 30, sm: 40 } }}>
        Terms and Conditions
      </Typography>
      <TermsSections />
    </Page>
  );
}
