import Typography from "@mui/material/Typography";
import { useDocumentTitle } from "../shared/document-title.ts";
import { Page } from "../shared/layout.tsx";

export function AboutPage() {
  useDocumentTitle("About");
  return (
    <Page>
      <Typography variant="h4" component="h1" gutterBottom>
        About Expert Sessions
      </Typography>
      <Typography>More about us is coming soon.</Typography>
    </Page>
  );
}

export function ReleaseNotesPage() {
  useDocumentTitle("Release notes");
  return (
    <Page>
      <Typography variant="h4" component="h1" gutterBottom>
        Release notes
      </Typography>
      <Typography>Release notes will be published here.</Typography>
    </Page>
  );
}
