import LockIcon from "@mui/icons-material/Lock";
import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Divider,
  Link,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useState, type FormEvent, type ReactNode } from "react";
import type { SecondFactorKind, TwoFactorEnrolReply } from "@booking/contracts";
import {
  AuthenticatorCode,
  confirmTwoFactor,
  enrolTwoFactor,
  RecoveryCode,
  SignInRefused,
  signInWithPasskey,
  signInWithPassword,
  signInWithSecondFactor,
  useLogin,
  type AuthSession,
  type SignInStep,
} from "../sign-in-calls.ts";
import { passkeyBrowserProblem, passkeysSupported, PasskeyStepButton } from "./passkey-step.tsx";

// Sign-in for admins, in as many steps as the account needs (issue 33.4): the password; the code
// from the authenticator app (or a recovery code), or one of the admin's passkeys (passkey-step.tsx);
// and, for an admin without a second factor, two-factor sign-in's set-up in place of the console (the
// QR code or the key, a first code, the recovery codes shown once). A refusal (wrong password, wrong
// code, a passkey refused, an account that is not an admin's) is shown right here, on the page, not
// in a passing toast.

type Step =
  | { kind: "password" }
  | { kind: "code"; challenge: string; recovery: boolean; secondFactors: SecondFactorKind[] }
  | { kind: "scan"; session: AuthSession; enrolment: TwoFactorEnrolReply }
  | { kind: "recovery-codes"; session: AuthSession; codes: string[] };

/** Refusals that end a sign-in: the password must be given again. */
const SIGN_IN_OVER = new Set(["two_factor_challenge_expired", "two_factor_challenge_invalid"]);

export function SignInPage() {
  const login = useLogin();
  const [step, setStep] = useState<Step>({ kind: "password" });
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Run a step; a refusal is shown, and a sign-in that is over goes back to the password. */
  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e instanceof Error ? e.message : "Sign-in failed. Please try again.");
      if (e instanceof SignInRefused && e.code && SIGN_IN_OVER.has(e.code)) setStep({ kind: "password" });
      setBusy(false);
    }
  };

  /** Where a step leads: into the console, to the code, or to setting up two-factor sign-in with the password just given. */
  const advance = async (next: SignInStep) => {
    setCode("");
    if (next.kind === "signed-in") return login({ session: next.session });
    if (next.kind === "code") return (setStep({ ...next, recovery: false }), setBusy(false));
    setStep({ kind: "scan", session: next.session, enrolment: await enrolTwoFactor(next.session, password) });
    setBusy(false);
  };

  const submitPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void attempt(async () => advance(await signInWithPassword(email, password)));
  };

  const submitCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (step.kind !== "code") return;
    const checked = (step.recovery ? RecoveryCode : AuthenticatorCode).safeParse(code);
    if (!checked.success) return setError(step.recovery ? "Enter one of your recovery codes." : "Enter the 6-digit code your app shows.");
    const proof = step.recovery ? { recovery_code: checked.data } : { code: checked.data };
    void attempt(async () => advance(await signInWithSecondFactor(step.challenge, proof)));
  };

  /** "Use a passkey": the device is asked; what the browser reports is said in words, the API's refusals as they come. */
  const answerWithPasskey = () => {
    if (step.kind !== "code") return;
    void attempt(async () => {
      const next = await signInWithPasskey(step.challenge).catch((e: unknown) => {
        const problem = passkeyBrowserProblem(e);
        throw problem ? new Error(problem) : e;
      });
      await advance(next);
    });
  };

  const submitFirstCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (step.kind !== "scan") return;
    const checked = AuthenticatorCode.safeParse(code);
    if (!checked.success) return setError("Enter the 6-digit code your app shows.");
    void attempt(async () => {
      setStep({ kind: "recovery-codes", session: step.session, codes: await confirmTwoFactor(step.session, checked.data) });
      setBusy(false);
    });
  };

  const codeField = (label: string, helper: string) => (
    <TextField
      label={label}
      name="code"
      autoComplete="one-time-code"
      value={code}
      onChange={(e) => setCode(e.target.value)}
      helperText={helper}
      required
      autoFocus
      fullWidth
    />
  );
  const submit = (label: string, disabled = false) => (
    <Button
      type="submit"
      variant="contained"
      size="large"
      disabled={busy || disabled}
      startIcon={busy ? <CircularProgress size={18} color="inherit" /> : null}
    >
      {label}
    </Button>
  );
  const refusal = error ? (
    <Alert severity="error" role="alert" data-testid="sign-in-error">
      {error}
    </Alert>
  ) : null;

  // An admin with passkeys and no authenticator app: the passkey is the step.
  if (step.kind === "code" && !step.secondFactors.includes("code"))
    return (
      <SignInCard
        onSubmit={(e) => (e.preventDefault(), answerWithPasskey())}
        label="Two-factor sign-in"
        subtitle="The second step of your sign-in."
      >
        {refusal}
        <Typography variant="body2">
          {passkeysSupported()
            ? "Confirm it is you with one of the passkeys you added to your account."
            : "Your account asks for one of your passkeys, and this browser cannot use passkeys. Please sign in from a browser that can."}
        </Typography>
        <PasskeyStepButton onClick={answerWithPasskey} busy={busy} primary />
      </SignInCard>
    );

  if (step.kind === "code")
    return (
      <SignInCard onSubmit={submitCode} label="Two-factor sign-in" subtitle="The second step of your sign-in.">
        {refusal}
        {step.recovery
          ? codeField("Recovery code", "One of the codes you saved when you set up two-factor sign-in.")
          : codeField("6-digit code", "The code your authenticator app shows now.")}
        <Link component="button" type="button" onClick={() => (setCode(""), setStep({ ...step, recovery: !step.recovery }))}>
          {step.recovery ? "Use your authenticator app instead" : "Use a recovery code instead"}
        </Link>
        {submit("Verify", !code)}
        {step.secondFactors.includes("passkey") && passkeysSupported() && (
          <>
            <Divider>or</Divider>
            <PasskeyStepButton onClick={answerWithPasskey} busy={busy} primary={false} />
          </>
        )}
      </SignInCard>
    );

  if (step.kind === "scan")
    return (
      <SignInCard onSubmit={submitFirstCode} label="Set up two-factor sign-in" subtitle="Admins sign in with a second factor.">
        {refusal}
        <Typography variant="body2">
          Scan this QR code with an authenticator app, then enter the code it shows. The console opens once two-factor sign-in is on.
        </Typography>
        <Box
          component="img"
          src={step.enrolment.qr_code}
          alt="QR code to scan with your authenticator app"
          sx={{ width: 200, height: 200, alignSelf: "center" }}
        />
        <Typography variant="body2">
          Can&apos;t scan it? Enter this key:{" "}
          <Box component="code" aria-label="Key for your authenticator app">
            {step.enrolment.secret.replace(/(.{4})(?=.)/g, "$1 ")}
          </Box>
        </Typography>
        {codeField("6-digit code", "The code your authenticator app shows now.")}
        {submit("Turn On", !code)}
      </SignInCard>
    );

  if (step.kind === "recovery-codes")
    return (
      <SignInCard
        onSubmit={(e) => (e.preventDefault(), void attempt(() => login({ session: step.session })))}
        label="Save your recovery codes"
        subtitle="Two-factor sign-in is on."
      >
        {refusal}
        <Typography variant="body2">
          Each code signs you in once if you lose your phone. Save them somewhere safe now: they are not shown again.
        </Typography>
        <Box component="ol" aria-label="Recovery codes" sx={{ fontFamily: "monospace", columns: 2, m: 0 }}>
          {step.codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </Box>
        {submit("I saved them")}
      </SignInCard>
    );

  return (
    <SignInCard onSubmit={submitPassword} label="Sign in" subtitle="Sign in with an admin account.">
      {refusal}
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
        autoFocus
        fullWidth
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        required
        fullWidth
      />
      {submit("Sign in", !email || !password)}
    </SignInCard>
  );
}

/** The card every step sits in: the console's name above the step's form. */
function SignInCard({
  onSubmit,
  label,
  subtitle,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  label: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <Box sx={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center", bgcolor: "grey.100", p: 2 }}>
      <Card sx={{ width: "100%", maxWidth: 400 }}>
        <CardContent>
          <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate aria-label={label}>
            <Stack spacing={1} sx={{ alignItems: "center" }}>
              <Avatar sx={{ bgcolor: "primary.main" }}>
                <LockIcon />
              </Avatar>
              <Typography variant="h5" component="h1">
                Expert sessions admin
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {subtitle}
              </Typography>
            </Stack>
            {children}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
