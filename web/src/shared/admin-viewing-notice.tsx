import Alert from "@mui/material/Alert";
import Link from "@mui/material/Link";

/** Shown above a user's dashboard opened by an admin: whose data this is, and where admins act. */
export function AdminViewingNotice() {
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      You are viewing this user's dashboard as an admin. Changes to users and experts are made in the{" "}
      <Link href="/admin/">admin console</Link>.
    </Alert>
  );
}
