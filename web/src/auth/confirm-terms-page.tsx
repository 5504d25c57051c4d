import { useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Typography from "@mui/material/Typography";
import { api } from "../shared/api-client.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { FormPage, FormRefusal } from "../shared/form-page.tsx";
import { TermsSections } from "../terms/terms-text.tsx";
import { destinationOf } from "./destination.ts";

export function ConfirmTermsPage() {
  useDocumentTitle("Accept the Terms and Conditions");
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [accepted, setAccepted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const next = (user: { id: string; role: string }) => {
    const from = destinationOf(location);
    if (user.role === "expert") return `/expert-dashboard/${user.id}/profile`;
    return from ?? "/search";
  };

  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      const { version_id } = await api.get<{ version_id: string }>("/terms/latest");
      await api.post("/terms/accept", { version_id });
      const me = await auth.reloadUser();
      if (me) navigate(next(me), { replace: true });
    } catch (e) {
      console.error("Could not save acceptance", e);
      setError("Could not save acceptance, please try again.");
      setBusy(false);
    }
  };

  return (
    <FormPage title="Terms and Conditions" width={760}>
      <Typography sx={{ mb: 2 }}>Please read and accept our Terms and Conditions to continue.</Typography>
      <Box
        role="region"
        aria-label="Terms and Conditions text"
        tabIndex={0}
        sx={{
          maxHeight: 360,
          overflowY: "auto",
          border: 1,
          borderColor: "divider",
          borderRadius: 2,
          p: 2,
          mb: 2,
          "&:focus-visible": { outline: "3px solid #ff9800" },
        }}
      >
        <TermsSections headingLevel="h2" />
      </Box>
      <FormControlLabel
        control={<Checkbox checked={accepted} onChange={(e) => setAccepted(e.target.checked)} />}
        label="I accept the Terms and Conditions"
      />
      <Box sx={{ mt: 2 }}>
        <Button variant="contained" size="large" disabled={!accepted || busy} onClick={accept}>
          Continue
        </Button>
      </Box>
      <FormRefusal message={error} />
    </FormPage>
  );
}
