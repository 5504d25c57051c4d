import { Box, Button, Link, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { useRecordContext } from "react-admin";
import type { Booking } from "../bookings/booking-record.ts";
import { disputeMoney, disputePath, evidenceDeadlineText, reasonText, testPaymentIds, type BookingDispute } from "./dispute-record.ts";
import { DisputeStatusChip } from "./dispute-status.tsx";
import { TestDisputeForm } from "./test-dispute.tsx";

// A booking's disputes on its page (issue 31.2): each dispute's status, amount, reason and evidence deadline, with a
// link to its page (when it opened, the evidence, the PDF). A booking paid with the test provider also offers to open
// a test dispute, so the flow can be tried without Stripe; the payment's id comes from the booking's history (its
// PaymentSucceeded event).

function DisputeRows({ disputes, currency }: { disputes: readonly BookingDispute[]; currency: string }) {
  return (
    <Table size="small" aria-label="Disputes of this booking" data-testid="booking-disputes" sx={{ "& td, & th": { px: 1 } }}>
      <TableHead>
        <TableRow>
          <TableCell>Status</TableCell>
          <TableCell align="right">Amount</TableCell>
          <TableCell>Reason</TableCell>
          <TableCell>Evidence deadline</TableCell>
          <TableCell>
            <Box component="span" sx={{ position: "absolute", left: -10000 }}>
              Dispute
            </Box>
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {disputes.map((d) => (
          <TableRow key={d.dispute_id} data-dispute-id={d.dispute_id} data-status={d.status}>
            <TableCell>
              <DisputeStatusChip status={d.status} />
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
              {disputeMoney(d.amount_cents, currency)}
              {d.status === "lost" ? ` (lost ${disputeMoney(d.lost_cents, currency)})` : ""}
            </TableCell>
            <TableCell>{reasonText(d.reason)}</TableCell>
            <TableCell>{evidenceDeadlineText(d)}</TableCell>
            <TableCell sx={{ whiteSpace: "nowrap" }}>
              <Link component={RouterLink} to={disputePath(d.dispute_id)}>
                Open the dispute
              </Link>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** "Open a test dispute", and the form once asked for, on a booking's test payments that have no dispute yet. */
function OpenTestDispute({ paymentIds, currency }: { paymentIds: readonly string[]; currency: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Stack spacing={1.5} sx={{ mt: 2 }}>
      <Box>
        <Button size="small" variant="outlined" aria-expanded={open} aria-controls="test-dispute" onClick={() => setOpen(!open)}>
          {open ? "Close the test dispute form" : "Open a test dispute"}
        </Button>
      </Box>
      {open ? (
        <Box id="test-dispute">
          <TestDisputeForm paymentIds={paymentIds} currency={currency} />
        </Box>
      ) : null}
    </Stack>
  );
}

/** The booking's disputes and the test action; nothing on a booking with neither. */
export function BookingDisputes() {
  const booking = useRecordContext<Booking>();
  if (!booking) return null;
  const disputes: readonly BookingDispute[] = Array.isArray(booking.disputes) ? booking.disputes : [];
  const untested = testPaymentIds(booking.timeline).filter((id) => !disputes.some((d) => d.payment_id === id));
  if (disputes.length === 0 && untested.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="booking-disputes-title" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" id="booking-disputes-title" sx={{ mb: 1 }}>
        Disputes
      </Typography>
      {disputes.length > 0 ? (
        <Box sx={{ overflowX: "auto" }}>
          <DisputeRows disputes={disputes} currency={booking.currency} />
        </Box>
      ) : (
        <Typography variant="body2">No dispute of this booking's payment.</Typography>
      )}
      {untested.length > 0 ? <OpenTestDispute paymentIds={untested} currency={booking.currency} /> : null}
    </Box>
  );
}
