import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import Typography from "@mui/material/Typography";
import type { ReceiptReply } from "@booking/contracts";
import { API_BASE, api, errorMessage } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { browserZone, longDate } from "../shared/local-time.ts";
import { moneyText } from "../shared/money.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { saveFile } from "../shared/save-file.ts";

// A paid booking's receipts (issue 29.7): one per payment and one per refund, each a PDF with the
// parties, the session, the date in the reader's zone and the amounts. The booking's creator (and
// an admin helping them) may read them; the API refuses anyone else.

/** One receipt of GET /bookings/{id}/receipts. */
export type Receipt = ReceiptReply;

const KIND = { payment: "Payment receipt", refund: "Refund receipt" } as const;

/** The receipt's file under /api/v1, with the reader's zone for an account that has none saved. */
export function receiptPath(bookingId: string, receipt: Receipt): string {
  const path = receipt.url.startsWith(API_BASE)
    ? receipt.url.slice(API_BASE.length)
    : `/bookings/${encodeURIComponent(bookingId)}/receipts/${encodeURIComponent(receipt.key)}.pdf`;
  return `${path}?tz=${encodeURIComponent(browserZone())}`;
}

/** Who may see a booking's receipts: its creator, or an admin. */
export const readsReceipts = (booking: Pick<Booking, "creator_id" | "paid_cents">, user: { id: string; role: string } | null) =>
  booking.paid_cents > 0 && !!user && (user.role === "admin" || user.id === booking.creator_id);

export function BookingReceipts({ booking }: { booking: Pick<Booking, "id" | "creator_id" | "paid_cents"> }) {
  const { user } = useAuth();
  const shown = readsReceipts(booking, user);
  const receipts = useQuery({
    queryKey: [...BOOKINGS_KEY, "receipts", booking.id],
    queryFn: ({ signal }) => api.get<{ receipts: Receipt[] }>(`/bookings/${encodeURIComponent(booking.id)}/receipts`, { signal }),
    enabled: shown,
    staleTime: 0,
  });
  const [failure, setFailure] = useState<string | null>(null);
  if (!shown) return null;
  const download = async (receipt: Receipt) => {
    setFailure(null);
    try {
      saveFile(await api.file(receiptPath(booking.id, receipt)), `${receipt.kind}-receipt-${receipt.key}.pdf`);
    } catch (e) {
      setFailure(errorMessage(e));
    }
  };
  return (
    <Box component="section" aria-labelledby={`receipts-${booking.id}`} sx={{ mt: 3 }}>
      <Typography variant="h5" component="h2" id={`receipts-${booking.id}`} sx={{ mb: 1 }}>
        Receipts
      </Typography>
      {receipts.isPending ? (
        <Typography variant="body2">Loading your receipts…</Typography>
      ) : receipts.isError ? (
        <Typography variant="body2" color="error">
          {errorMessage(receipts.error)}
        </Typography>
      ) : receipts.data.receipts.length === 0 ? (
        <Typography variant="body2">Your receipt will appear here once the payment is recorded.</Typography>
      ) : (
        <List dense disablePadding>
          {receipts.data.receipts.map((r) => {
            const label = `${KIND[r.kind]}: ${moneyText(r.amount_cents, r.currency)}, ${longDate(r.at)}`;
            return (
              <ListItem key={r.key} disableGutters>
                <Link component="button" type="button" onClick={() => void download(r)} aria-label={`${label} (PDF)`}>
                  {label}
                </Link>
              </ListItem>
            );
          })}
        </List>
      )}
      {failure && (
        <Typography role="alert" color="error" variant="body2">
          {failure}
        </Typography>
      )}
    </Box>
  );
}
