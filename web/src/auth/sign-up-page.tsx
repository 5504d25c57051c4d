import { useState, type FormEvent } from "react";
import { Link as RouterLink, Navigate, useLocation, useSearchParams } from "react-router-dom";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Link from "@mui/material/Link";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { errorMessage, signUp } from "../shared/api-client.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { homeOf } from "../shared/guard.tsx";
import { FormPage, FormRefusal } from "../shared/form-page.tsx";
import { CardPage } from "../shared/layout.tsx";
import { browserZone } from "../shared/local-time.ts";
import { authPageFor, destinationOf, isBookingPath } from "./destination.ts";
import { passwordHelp, validateSignUp, type SignUpErrors, type SignUpInput } from "./login-form.ts";
import { SendAgain } from "./verification-mail.tsx";

/**
 * After sign-up: the account waits for the address to be confirmed from the mail just sent. The
 * API answers an address that already has an account alike (and mails its owner how to sign in),
 * so this screen says nothing about which it was.
 */
function CheckInbox({ email, next }: { email: string; next: string | null }) {
  return (
    <CardPage title="Check your inbox" width={520}>
      <Typography>
        We sent a link to <strong>{email}</strong>. Open it to confirm your email and sign in; it works for 24 hours.
      </Typography>
      <Typography color="text.secondary">If this address already has an account, the mail tells you how to sign in instead.</Typography>
      <Typography color="text.secondary">No mail? Look in your spam folder, or send it again.</Typography>
      <SendAgain email={email} next={next} />
      <Typography>
        Confirmed already?{" "}
        <Link component={RouterLink} to={authPageFor("/login", next)}>
          Login
        </Link>
      </Typography>
    </CardPage>
  );
}

export function SignUpPage() {
  useDocumentTitle("Create Your Account");
  const auth = useAuth();
  const location = useLocation();
  const [search] = useSearchParams();
  // Where to go once the address is confirmed: the API signs it into the mail's link (issue 27.4).
  const next = destinationOf(location);
  const creatorFirst = isBookingPath(next) || search.get("role") === "creator";
  const [form, setForm] = useState<SignUpInput>({
    role: creatorFirst ? "creator" : "",
    firstName: "",
    lastName: "",
    email: "",
    password: "",
  });
  const [errors, setErrors] = useState<SignUpErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [signedUp, setSignedUp] = useState<string | null>(null);

  if (signedUp) return <CheckInbox email={signedUp} next={next} />;
  if (auth.status === "authenticated" && auth.user && !busy) return <Navigate to={next ?? homeOf(auth.user)} replace />;

  const set = (field: keyof SignUpInput) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSignUp(form);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length || !form.role) return;
    setBusy(true);
    try {
      // The zone the browser reports: the account's mails give times in it until the user picks another.
      const names = { first_name: form.firstName.trim(), last_name: form.lastName.trim() };
      const where = { timezone: browserZone(), ...(next && { next }) };
      const reply = await signUp({ email: form.email.trim(), password: form.password, role: form.role, ...names, ...where });
      setSignedUp(reply.user.email);
    } catch (error) {
      setServerError(errorMessage(error));
    }
    setBusy(false);
  };

  return (
    <FormPage title="Create Your Account">
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
          <TextField
            label="First Name"
            autoComplete="given-name"
            value={form.firstName}
            onChange={set("firstName")}
            error={!!errors.firstName}
            helperText={errors.firstName}
            required
          />
          <TextField
            label="Last Name"
            autoComplete="family-name"
            value={form.lastName}
            onChange={set("lastName")}
            error={!!errors.firstName}
            required
          />
        </Box>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={set("email")}
          error={!!errors.email}
          helperText={errors.email}
          required
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set("password")}
          error={!!errors.password}
          helperText={passwordHelp(errors.password)}
          required
        />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Create Account
        </Button>
      </Box>
      <FormRefusal message={serverError} />
      <Typography sx={{ mt: 3 }}>
        Already have an account?{" "}
        <Link component={RouterLink} to={authPageFor("/login", next)}>
          Login
        </Link>
      </Typography>
    </FormPage>
  );
}
