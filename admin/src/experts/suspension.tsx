import BlockIcon from "@mui/icons-material/Block";
import RestoreIcon from "@mui/icons-material/Restore";
import {
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { Button, ReferenceField, TextField, useDataProvider, useNotify, useRecordContext, useRefresh } from "react-admin";
import type { BookingStatus, SuspensionReply } from "@booking/contracts";
import { BookingStatusChip } from "../bookings/booking-status.tsx";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { ConfirmDialog } from "../layout/confirm-dialog.tsx";
import { expertName, type Expert } from "./expert-record.ts";

// Suspension (issue 30): an admin suspends an approved expert with a reason (they lose the check mark and
// cannot be booked) or reinstates a suspended one. A suspension cancels nothing: the API answers with the
// expert's open bookings, which the admin then resolves one by one from each booking's page.

type OpenBooking = SuspensionReply["open_bookings"][number];

/** The open bookings a suspension left for the admin to resolve, each linked to its page. */
function OpenBookings({ name, bookings, onClose }: { name: string; bookings: readonly OpenBooking[]; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId}>{`${name} is suspended: open bookings to resolve`}</DialogTitle>
      <DialogContent>
        {bookings.length === 0 ? (
          <Typography variant="body2" data-testid="no-open-bookings">
            {`${name} has no open bookings: there is nothing to resolve.`}
          </Typography>
        ) : (
          <>
            <Typography variant="body2" sx={{ mb: 2 }}>
              {`Nothing was cancelled. ${bookings.length === 1 ? "This booking is" : `These ${bookings.length} bookings are`} still open: `}
              resolve each one from its page (cancel and refund, or let it go ahead).
            </Typography>
            <Table size="small" aria-label="Open bookings to resolve" data-testid="open-bookings">
              <TableHead>
                <TableRow>
                  <TableCell>Scheduled</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Creator</TableCell>
                  <TableCell>Booking</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {bookings.map((booking) => (
                  <TableRow key={booking.id}>
                    <TableCell>{consoleMoment(booking.scheduled_time)}</TableCell>
                    <TableCell>
                      <BookingStatusChip status={booking.status as BookingStatus} />
                    </TableCell>
                    <TableCell>
                      <ReferenceField record={booking} source="creator_id" reference="users" link="show" emptyText={booking.creator_id}>
                        <TextField source="email" />
                      </ReferenceField>
                    </TableCell>
                    <TableCell>
                      <Link component={RouterLink} to={`/bookings/${encodeURIComponent(booking.id)}/show`}>
                        Resolve booking
                      </Link>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button label="Close" onClick={onClose} />
      </DialogActions>
    </Dialog>
  );
}

/** "Suspend" for an approved expert, "Reinstate" for a suspended one; each asks for a reason the expert reads. */
export function SuspensionButton() {
  const expert = useRecordContext<Expert>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const [toResolve, setToResolve] = useState<readonly OpenBooking[] | null>(null);
  const suspend = expert?.vetting_status === "approved";
  const name = expert ? expertName(expert) : "";
  const send = useMutation({
    mutationFn: (reason: string) =>
      suspend ? dataProvider.suspendExpert(String(expert?.id), reason) : dataProvider.reinstateExpert(String(expert?.id), reason),
    onSuccess: (reply) => {
      notify(suspend ? `${name} is suspended.` : `${name} is reinstated and can be booked again.`, { type: "success" });
      if (suspend) setToResolve(reply.open_bookings);
      refresh();
    },
    onError: (error) => notify(error instanceof Error ? error.message : "Nothing was changed.", { type: "error" }),
  });
  if (!expert) return null;
  const shown = expert.vetting_status === "approved" || expert.vetting_status === "suspended";
  return (
    <>
      {shown ? (
        <Button
          label={suspend ? "Suspend" : "Reinstate"}
          onClick={() => setAsking(true)}
          disabled={send.isPending}
          color={suspend ? "error" : "primary"}
        >
          {suspend ? <BlockIcon /> : <RestoreIcon />}
        </Button>
      ) : null}
      <ConfirmDialog
        open={asking}
        title={suspend ? `Suspend ${name}?` : `Reinstate ${name}?`}
        explanation={
          suspend
            ? `${name} loses the check mark and cannot be booked. Their open bookings are not cancelled: you are shown them next, to resolve.`
            : `${name} gets the check mark back and can be booked again.`
        }
        confirmLabel={suspend ? "Suspend expert" : "Reinstate expert"}
        askReason
        busy={send.isPending}
        color={suspend ? "error" : "primary"}
        onCancel={() => setAsking(false)}
        onConfirm={(reason) => {
          setAsking(false);
          send.mutate(reason);
        }}
      />
      {toResolve ? <OpenBookings name={name} bookings={toResolve} onClose={() => setToResolve(null)} /> : null}
    </>
  );
}
