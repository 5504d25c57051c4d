import type { ReactNode } from "react";
import Alert from "@mui/material/Alert";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { Page } from "./layout.tsx";

/** A page that is one form (login, sign-up, terms, early access): a centred card under its h1 title. */
export function FormPage({ title, width = 520, children }: { title: string; width?: number; children: ReactNode }) {
  return (
    <Page slim>
      <Paper component="section" variant="outlined" sx={{ maxWidth: width, mx: "auto", p: { xs: width > 600 ? 2 : 3, sm: 4 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          {title}
        </Typography>
        {children}
      </Paper>
    </Page>
  );
}

/** What the API answered when a form was refused as a whole, below the form. */
export function FormRefusal({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert severity="error" sx={{ mt: 2 }} role="alert">
      {message}
    </Alert>
  );
}
