import { useMemo, useState, type FormEvent } from "react";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe } from "@stripe/stripe-js";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import { GENERIC_ERROR_MESSAGE } from "../shared/api-client.ts";

// Stripe Elements, loaded only when the server has a publishable key. The payment is recorded
// by the server from Stripe's signed webhook; this form only confirms the PaymentIntent.

function ConfirmForm({ onPaid, onError }: { onPaid: () => void; onError: (message: string) => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    onError("");
    const { error } = await stripe.confirmPayment({
      elements,
      redirect: "if_required",
      confirmParams: { return_url: window.location.href },
    });
    if (error) {
      onError(error.message ?? GENERIC_ERROR_MESSAGE);
      setBusy(false);
      return;
    }
    onPaid();
  };
  return (
    <Box component="form" onSubmit={submit} aria-label="Card payment" sx={{ display: "grid", gap: 2, maxWidth: 480 }}>
      <PaymentElement />
      <Box>
        <Button type="submit" variant="contained" size="large" disabled={!stripe || busy}>
          Confirm & Pay
        </Button>
      </Box>
    </Box>
  );
}

export default function StripeCardForm({
  publishableKey,
  clientSecret,
  onPaid,
  onError,
}: {
  publishableKey: string;
  clientSecret: string;
  onPaid: () => void;
  onError: (message: string) => void;
}) {
  const stripe = useMemo(() => loadStripe(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripe} options={{ clientSecret }}>
      <ConfirmForm onPaid={onPaid} onError={onError} />
    </Elements>
  );
}
