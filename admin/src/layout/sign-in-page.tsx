import LockIcon from "@mui/icons-material/Lock";
import { Alert, Avatar, Box, Button, Card, CardContent, CircularProgress, Stack, TextField, Typography } from "@mui/material";
import { useState, type FormEvent } from "react";
import { useLogin } from "react-admin";

/**
 * Sign-in for admins. A refusal (wrong password, or an account that is not an admin's) is shown
 * right here, on the page, not in a passing toast.
 */
export function SignInPage() {
  const login = useLogin();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login({ email, password });
    } catch (e) {
      setError(e instanceof Error ? e.message : "Sign-in failed. Please try again.");
      setBusy(false);
    }
  };

  return (
    <Box sx={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center", bgcolor: "grey.100", p: 2 }}>
      <Card sx={{ width: "100%", maxWidth: 400 }}>
        <CardContent>
          <Stack component="form" spacing={2} onSubmit={(e) => void submit(e)} noValidate aria-label="Sign in">
            <Stack spacing={1} sx={{ alignItems: "center" }}>
              <Avatar sx={{ bgcolor: "primary.main" }}>
                <LockIcon />
              </Avatar>
              <Typography variant="h5" component="h1">
                Expert sessions admin
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Sign in with an admin account.
              </Typography>
            </Stack>
            {error ? (
              <Alert severity="error" role="alert" data-testid="sign-in-error">
                {error}
              </Alert>
            ) : null}
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
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={busy || !email || !password}
              startIcon={busy ? <CircularProgress size={18} color="inherit" /> : null}
            >
              Sign in
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
