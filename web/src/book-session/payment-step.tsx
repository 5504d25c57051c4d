import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { TIMERS_MS } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { currencyOf, moneyText } from "../shared/money.ts";
import { api, ApiError, errorMessage } from "../shared/api-client.ts";
import type { Booking, PaymentIntentReply } from "../shared/api-types.ts";
import { localMoment } from "../shared/local-time.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { CancellationPolicy } from "./cancellation-policy.tsx";
import { HoldPanel } from "./hold-panel.tsx";

// Payment: Stripe Elements when the server has a publishable key, else the test provider's card
// form (4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined).

const StripeCardForm = lazy(() => import("./stripe-card-form.tsx"));

export type CardInput = { number: string; expiry: string; cvc: string };
export type CardErrors = Partial<Record<keyof CardInput, string>>;

/** American Express numbers start 34 or 37 and carry a 4-digit code on the front; other cards a 3-digit one. */
export const cvcLength = (cardNumber: string) => (/^3[47]/.test(cardNumber.replace(/\s+/g, "")) ? 4 : 3);

/** As Stripe's Elements check a card before sending it: the number's shape, an expiry not in the past, the CVC length of the brand. */
export function validateCard(card: CardInput, now: Date = new Date()): CardErrors {
  const errors: CardErrors = {};
  const digits = card.number.replace(/\s+/g, "");
  if (!/^\d{12,19}$/.test(digits)) errors.number = "Please enter a valid card number.";
  const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(card.expiry.trim());
  if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) errors.expiry = "Please enter the expiry date as MM/YY.";
  // A card is good through the last day of its expiry month (months counted from year 0).
  else if ((2000 + Number(m[2])) * 12 + Number(m[1]) - 1 < now.getFullYear() * 12 + now.getMonth())
    errors.expiry = "Your card's expiry date is in the past.";
  const cvc = card.cvc.trim();
  const wanted = cvcLength(digits);
  if (cvc.length !== wanted || !/^\d+$/.test(cvc)) {
    errors.cvc =
      wanted === 4
        ? "Please enter the 4-digit security code on the front of your American Express card."
        : "Please enter the 3-digit security code on the back of your card.";
  }
  return errors;
}

/** "4242424242424242" -> "4242 4242 4242 4242" as it is typed. */
export const formatCardNumber = (typed: string) =>
  typed
    .replace(/[^\d]/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");

function TestCardForm({ clientSecret, onPaid, onError }: { clientSecret: string; onPaid: () => void; onError: (message: string) => void }) {
  const [card, setCard] = useState<CardInput>({ number: "", expiry: "", cvc: "" });
  const [errors, setErrors] = useState<CardErrors>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateCard(card);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    onError("");
    try {
      await api.post("/payments/test/confirm", { client_secret: clientSecret, card_number: card.number.replace(/\s+/g, "") });
      onPaid();
    } catch (error) {
      onError(errorMessage(error));
      setBusy(false);
    }
  };
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Card payment" sx={{ display: "grid", gap: 2, maxWidth: 420 }}>
      <TextField
        label="Card number"
        value={card.number}
        onChange={(e) => setCard((c) => ({ ...c, number: formatCardNumber(e.target.value) }))}
        autoComplete="cc-number"
        error={!!errors.number}
        helperText={errors.number}
        slotProps={{ htmlInput: { inputMode: "numeric" } }}
        placeholder="1234 1234 1234 1234"
      />
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: "1fr 1fr" }}>
        <TextField
          label="Expiry (MM/YY)"
          value={card.expiry}
          onChange={(e) => setCard((c) => ({ ...c, expiry: e.target.value }))}
          autoComplete="cc-exp"
          error={!!errors.expiry}
          helperText={errors.expiry}
          placeholder="MM/YY"
        />
        <TextField
          label="CVC"
          value={card.cvc}
          onChange={(e) => setCard((c) => ({ ...c, cvc: e.target.value }))}
          autoComplete="cc-csc"
          error={!!errors.cvc}
          helperText={errors.cvc}
          slotProps={{ htmlInput: { inputMode: "numeric" } }}
        />
      </Box>
      <Box>
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          Confirm & Pay
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary">
        Test payments: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.
      </Typography>
    </Box>
  );
}

type PaymentStepProps = {
  booking: Booking;
  /** After the success message's pause. */
  onPaid: () => void;
  /** As soon as the charge succeeds. */
  onCharged?: () => void;
  onStartOver: () => void;
  /** Back to the time step, while nothing is paid. */
  onChangeTime?: () => void;
  /** The hold on the time ran out unpaid (issue 27.8). */
  onHoldLapsed?: () => void;
  /** The creator released the held time. */
  onHoldReleased?: () => void;
};

export function PaymentStep({ booking, onPaid, onCharged, onStartOver, onChangeTime, onHoldLapsed, onHoldReleased }: PaymentStepProps) {
  const queryClient = useQueryClient();
  const [intent, setIntent] = useState<PaymentIntentReply | null>(null);
  const [loadError, setLoadError] = useState<{ message: string; final: boolean } | null>(null);
  const [message, setMessage] = useState<string>("");
  const [succeeded, setSucceeded] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const paidRef = useRef(onPaid);
  paidRef.current = onPaid;

  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    let live = true;
    api
      .post<PaymentIntentReply>("/stripe/test-intent", { bookingId: booking.id, amount: Math.round(booking.price * 100) })
      .then((reply) => live && setIntent(reply))
      .catch((error: unknown) => {
        if (!live) return;
        // Already paid (or free): nothing to charge.
        if (error instanceof ApiError && error.code === "booking_already_paid") return paidRef.current();
        setLoadError({ message: errorMessage(error), final: error instanceof ApiError && error.code === "booking_transition_refused" });
      });
    return () => {
      live = false;
    };
  }, [booking.id, booking.price]);

  const paid = () => {
    onCharged?.();
    setSucceeded(true);
    setMessage("");
    void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
    // Payment successful, then on to the preparation questions after 1.5 s.
    timer.current = setTimeout(() => paidRef.current(), TIMERS_MS.paymentSuccessPause);
  };

  return (
    <Box>
      <Typography variant="h5" component="h2" gutterBottom>
        Payment
      </Typography>
      <Paper variant="outlined" sx={{ p: 2, mb: 3, maxWidth: 420 }}>
        <Typography sx={{ fontWeight: 700 }}>{booking.session_title}</Typography>
        <Typography>{localMoment(booking.scheduled_time)}</Typography>
        <Typography sx={{ fontWeight: 800, fontSize: 22, mt: 1 }} data-testid="amount">
          Total: {moneyText(Math.round(booking.price * 100), currencyOf(booking))}
        </Typography>
      </Paper>
      {onHoldLapsed && onHoldReleased && !booking.paid && !succeeded && !loadError?.final && (
        <HoldPanel booking={booking} onLapsed={onHoldLapsed} onReleased={onHoldReleased} />
      )}
      <CancellationPolicy bookingId={booking.id} expertName={booking.session?.expertFirstName} terms={booking} />
      {succeeded ? (
        <Alert severity="success" role="status">
          Payment successful
        </Alert>
      ) : loadError ? (
        <Alert
          severity="error"
          role="alert"
          action={
            loadError.final ? (
              <Button color="inherit" onClick={onStartOver}>
                Start over
              </Button>
            ) : undefined
          }
        >
          {loadError.message}
        </Alert>
      ) : !intent ? (
        <Typography role="status">Preparing your payment...</Typography>
      ) : intent.publishableKey ? (
        <Suspense fallback={<Typography role="status">Loading the payment form...</Typography>}>
          <StripeCardForm publishableKey={intent.publishableKey} clientSecret={intent.clientSecret} onPaid={paid} onError={setMessage} />
        </Suspense>
      ) : (
        <TestCardForm clientSecret={intent.clientSecret} onPaid={paid} onError={setMessage} />
      )}
      {message && !succeeded && (
        <Alert severity="error" role="alert" sx={{ mt: 2, maxWidth: 420 }}>
          {message}
        </Alert>
      )}
      {onChangeTime && !succeeded && !loadError?.final && (
        <Button sx={{ mt: 3 }} onClick={onChangeTime}>
          Choose another time
        </Button>
      )}
    </Box>
  );
}
