import { useState, type FormEvent } from "react";
import { Link as RouterLink, Navigate, useLocation, useNavigate } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { errorMessage, signUp } from "../shared/api-client.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { homeOf } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { fromOf } from "./login-page.tsx";
import { validateSignUp, type SignUpErrors, type SignUpInput } from "./login-form.ts";

export function SignUpPage() {
  useDocumentTitle("Create Your Account");
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [form, setForm] = useState<SignUpInput>({ role: "", firstName: "", lastName: "", email: "", password: "" });
  const [errors, setErrors] = useState<SignUpErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const from = fromOf(location.state);

  if (auth.status === "authenticated" && auth.user && !busy) return <Navigate to={homeOf(auth.user)} replace />;

  const set = (field: keyof SignUpInput) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSignUp(form);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length || !form.role) return;
    setBusy(true);
    try {
      await signUp({ email: form.email.trim(), password: form.password, role: form.role, first_name: form.firstName.trim(), last_name: form.lastName.trim() });
      // Everyone accepts the current terms first.
      navigate("/confirm-terms", { replace: true, state: from ? { from } : undefined });
    } catch (error) {
      setServerError(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <Page slim>
      <Paper component="section" variant="outlined" sx={{ maxWidth: 520, mx: "auto", p: { xs: 3, sm: 4 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          Create Your Account
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          Creators book paid one-to-one sessions; experts offer them.
        </Typography>
        <Box component="form" noValidate onSubmit={submit} aria-label="Create your account" sx={{ display: "grid", gap: 2 }}>
          <FormControl error={!!errors.role} required>
            <FormLabel id="role-label">I am joining as</FormLabel>
            <RadioGroup row aria-labelledby="role-label" name="role" value={form.role} onChange={set("role")}>
              <FormControlLabel value="creator" control={<Radio />} label="A creator" />
              <FormControlLabel value="expert" control={<Radio />} label="An expert" />
            </RadioGroup>
            {errors.role && <FormHelperText>{errors.role}</FormHelperText>}
          </FormControl>
          <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
            <TextField label="First Name" autoComplete="given-name" value={form.firstName} onChange={set("firstName")} error={!!errors.firstName} helperText={errors.firstName} required />
            <TextField label="Last Name" autoComplete="family-name" value={form.lastName} onChange={set("lastName")} error={!!errors.firstName} required />
          </Box>
          <TextField label="Email" type="email" autoComplete="email" value={form.email} onChange={set("email")} error={!!errors.email} helperText={errors.email} required />
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={set("password")}
            error={!!errors.password}
            helperText={errors.password ?? "At least 8 characters, with a letter and a digit."}
            required
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Create Account
          </Button>
        </Box>
        {serverError && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert">
            {serverError}
          </Alert>
        )}
        <Typography sx={{ mt: 3 }}>
          Already have an account?{" "}
          <Link component={RouterLink} to="/login" state={location.state}>
            Login
          </Link>
        </Typography>
      </Paper>
    </Page>
  );
}
