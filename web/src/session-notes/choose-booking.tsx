import { Link as RouterLink } from "react-router-dom";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useAuth } from "../shared/auth.tsx";
import { homeOf } from "../shared/guard.tsx";

/** The notes pages without a booking in the address. */
export function ChooseBooking({ title }: { title: string }) {
  const auth = useAuth();
  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <Typography sx={{ mb: 2 }}>Open a booking from your dashboard to see its notes and details.</Typography>
      {auth.user && (
        <Button
          variant="contained"
          component={RouterLink}
          to={auth.user.role === "expert" ? `/expert-dashboard/${auth.user.id}/bookings` : homeOf(auth.user)}
        >
          Go to your bookings
        </Button>
      )}
    </>
  );
}

export function backToBookings(user: { id: string; role: string } | null): string {
  if (!user) return "/";
  return user.role === "expert" ? `/expert-dashboard/${user.id}/bookings` : `/creator-dashboard/${user.id}`;
}
