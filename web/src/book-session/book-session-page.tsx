import { useEffect, useRef, useState } from "react";
import { Link as RouterLink, useLocation, useParams, useSearchParams } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Step from "@mui/material/Step";
import StepButton from "@mui/material/StepButton";
import Stepper from "@mui/material/Stepper";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { authPageFor } from "../auth/destination.ts";
import { currencyOf, moneyText } from "../shared/money.ts";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking, Session } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { localMoment } from "../shared/local-time.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { CancellationPolicy } from "./cancellation-policy.tsx";
import { ConfirmationStep } from "./confirmation-step.tsx";
import { BookingFlowProvider, STEP_NAMES, stepIsReachable, useBookingFlow, type BookingStep } from "./booking-flow.tsx";
import { openHoldOn } from "./hold-panel.tsx";
import { PaymentStep } from "./payment-step.tsx";
import { PrepAnswersForm } from "./prep-answers-form.tsx";
import { prepQuestionsOf } from "./prep-answers.ts";
import { TimeStep } from "./time-step.tsx";

export function BookSessionPage() {
  const { id = "" } = useParams();
  const [search] = useSearchParams();
  const preview = search.get("preview") === "true";
  const auth = useAuth();
  const location = useLocation();
  const session = useQuery({
    queryKey: ["session", id],
    queryFn: ({ signal }) => api.get<Session>(`/sessions/${id}`, { signal }),
    retry: false,
    staleTime: 0,
  });
  // ?booking=<id>: an unpaid booking taken up again from the dashboard, at its payment step.
  const resumeId = search.get("booking");
  const resume = useQuery({
    queryKey: ["booking", resumeId],
    queryFn: ({ signal }) => api.get<Booking>(`/bookings/${resumeId}`, { signal }),
    enabled: !!resumeId && !preview && auth.status === "authenticated",
    retry: false,
    staleTime: 0,
  });
  // Without ?booking, an open hold of the creator's on this session is taken up again at payment (issue 27.8);
  // looked for once, so releasing it later does not restart the flow.
  const isCreator = !preview && auth.status === "authenticated" && auth.user?.role === "creator";
  const mine = useQuery({
    queryKey: [...BOOKINGS_KEY, "creator", "me"],
    queryFn: ({ signal }) => api.get<Booking[]>("/bookings/creator/me", { signal }),
    enabled: !resumeId && isCreator,
    retry: false,
    staleTime: 0,
  });
  const [openHold, setOpenHold] = useState<Booking | null | undefined>(undefined);
  const looked = !mine.isPending || !!resumeId || !isCreator;
  useEffect(() => {
    if (openHold === undefined && looked) setOpenHold(mine.data ? openHoldOn(mine.data, id) : null);
  }, [openHold, looked, mine.data, id]);
  useDocumentTitle(session.data ? `Book: ${session.data.title}` : "Book a session");

  if (!preview) {
    if (auth.status !== "authenticated" || !auth.user) {
      return (
        <Page>
          <Alert
            severity="info"
            action={
              <Button color="inherit" component={RouterLink} to={authPageFor("/login", `${location.pathname}${location.search}`)}>
                Login
              </Button>
            }
          >
            Please log in as a creator to book a session.
          </Alert>
        </Page>
      );
    }
    if (auth.user.role !== "creator") {
      return (
        <Page>
          <Alert severity="warning">
            {auth.user.role === "admin"
              ? "Admins cannot book sessions. Sign in with a creator account to book."
              : "Experts cannot book sessions."}
          </Alert>
        </Page>
      );
    }
  }
  if (session.isPending || (resumeId && !preview && resume.isPending) || openHold === undefined)
    return (
      <Page>
        <LoadingScreen label="Loading Session" />
      </Page>
    );
  if (session.isError || !session.data) {
    return (
      <Page>
        <Typography variant="h4" component="h1">
          Session Not Found
        </Typography>
      </Page>
    );
  }
  if (resumeId && !preview && (resume.isError || resume.data?.session_id !== id)) {
    return (
      <Page>
        <Alert
          severity="error"
          action={
            <Button color="inherit" component={RouterLink} to={`/book-session/${id}`}>
              Start a new booking
            </Button>
          }
        >
          {resume.isError ? errorMessage(resume.error) : "No booking found"}
        </Alert>
      </Page>
    );
  }
  return (
    <BookingFlowProvider
      key={resumeId ?? openHold?.id ?? "new"}
      sessionId={id}
      session={session.data}
      resume={preview ? null : (resume.data ?? openHold)}
    >
      <Page>
        <BookingWizard session={session.data} preview={preview} />
      </Page>
    </BookingFlowProvider>
  );
}

function ProgressMarkers({ preview }: { preview: boolean }) {
  const flow = useBookingFlow();
  const phone = useMediaQuery("(max-width:599px)");
  return (
    <Box sx={{ mb: 4 }}>
      <LinearProgress
        variant="determinate"
        value={(flow.step / (STEP_NAMES.length - 1)) * 100}
        aria-label="Booking progress"
        sx={{ height: 8, borderRadius: 4, mb: 2 }}
      />
      <Stepper
        nonLinear
        activeStep={flow.step}
        alternativeLabel={!phone}
        orientation={phone ? "vertical" : "horizontal"}
        aria-label="Booking steps"
      >
        {STEP_NAMES.map((name, i) => {
          const step = i as BookingStep;
          const reachable = !preview && stepIsReachable(step, flow);
          return (
            <Step key={name} completed={i < flow.step}>
              <StepButton
                onClick={() => flow.goTo(step)}
                disabled={!reachable || step === flow.step}
                aria-current={step === flow.step ? "step" : undefined}
              >
                {name}
              </StepButton>
            </Step>
          );
        })}
      </Stepper>
    </Box>
  );
}

function DetailStep({ session, preview }: { session: Session; preview: boolean }) {
  const flow = useBookingFlow();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }}>
      <Typography variant="h4" component="h2" gutterBottom>
        {session.title}
      </Typography>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", mb: 2 }}>
        <Chip label={moneyText(Math.round(session.price * 100), currencyOf(session), { short: true })} color="primary" />
        <Chip label={`${session.length_minutes} minutes`} variant="outlined" />
      </Box>
      <Typography sx={{ mb: 2 }}>
        With <strong>{session.expert.name}</strong>
      </Typography>
      {session.description && <Typography sx={{ mb: 2 }}>{session.description}</Typography>}
      <Typography variant="h6" component="h3">
        What's included
      </Typography>
      <Typography sx={{ mb: 2, whiteSpace: "pre-line" }}>
        {session.session_details || `A ${session.length_minutes}-minute one-to-one video session with written takeaways.`}
      </Typography>
      {session.ideal_for.length > 0 && (
        <>
          <Typography variant="h6" component="h3">
            Who it's for
          </Typography>
          <Box component="ul" sx={{ mt: 0.5, mb: 2 }}>
            {session.ideal_for.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </Box>
        </>
      )}
      <Typography sx={{ mb: 3 }}>Length: {session.length_minutes} minutes</Typography>
      <CancellationPolicy expertName={session.expert.first_name ?? session.expert.name} terms={session} />
      <Button variant="contained" size="large" disabled={preview} onClick={() => flow.goTo(1)}>
        Continue Booking
      </Button>
    </Paper>
  );
}

function BookingWizard({ session, preview }: { session: Session; preview: boolean }) {
  const flow = useBookingFlow();
  const questions = prepQuestionsOf(flow.bookingData ?? session);
  // Why the flow came back to the time step without a held time: released, or the hold ran out.
  const [holdNotice, setHoldNotice] = useState<string | null>(null);
  const backToTimes = (notice: string) => {
    setHoldNotice(notice);
    flow.update({ bookingId: null, bookingData: null, scheduledTime: null, step: 1, reached: 1 });
  };
  useEffect(() => {
    if (flow.step !== 1) setHoldNotice(null);
  }, [flow.step]);
  const top = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Not returned: newer browsers answer scrollIntoView with a promise, and an effect may return only a cleanup.
    top.current?.scrollIntoView?.({ block: "start" });
  }, [flow.step]);
  return (
    <Box ref={top}>
      {preview && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Preview mode: booking is disabled.
        </Alert>
      )}
      <Typography component="h1" variant="overline" sx={{ fontSize: 14, color: "text.secondary" }}>
        Book a session with {session.expert.name}
      </Typography>
      <ProgressMarkers preview={preview} />
      <Box data-testid={`wizard-step-${flow.step}`}>
        {flow.step === 0 && <DetailStep session={session} preview={preview} />}
        {flow.step === 1 && holdNotice && (
          <Alert severity="info" sx={{ mb: 2 }} data-testid="hold-notice">
            {holdNotice}
          </Alert>
        )}
        {flow.step === 1 && (
          <TimeStep
            session={session}
            preview={preview}
            held={!flow.paid ? flow.bookingData : null}
            onReleased={() => flow.update({ bookingId: null, bookingData: null, scheduledTime: null })}
            onKeep={() => flow.goTo(2)}
            onBooked={(booking) => {
              flow.update({ bookingId: booking.id, bookingData: booking, scheduledTime: booking.scheduled_time });
              flow.goTo(2);
            }}
          />
        )}
        {flow.step === 2 &&
          (flow.bookingData ? (
            <PaymentStep
              booking={flow.bookingData}
              // Paid from the moment the charge succeeds: no way back to the time step during the pause.
              onCharged={() => flow.update({ paid: true })}
              onPaid={() => {
                flow.update({ paid: true });
                flow.goTo(3);
              }}
              onStartOver={flow.clear}
              onChangeTime={() => flow.goTo(1)}
              onHoldLapsed={() => {
                if (!flow.paid && flow.bookingData)
                  backToTimes(
                    `Your hold on ${localMoment(flow.bookingData.scheduled_time)} lapsed: the time to pay ran ` +
                      `out and the time was released. Please choose a time again.`,
                  );
              }}
              onHoldReleased={() =>
                flow.bookingData && backToTimes(`You released ${localMoment(flow.bookingData.scheduled_time)}. It is free to book again.`)
              }
            />
          ) : (
            <Alert severity="error">No booking found</Alert>
          ))}
        {flow.step === 3 && (
          <Box>
            <Typography variant="h5" component="h2" gutterBottom>
              Preparation
            </Typography>
            <Typography sx={{ mb: 2 }}>
              Help {session.expert.first_name ?? "your expert"} prepare:{" "}
              {questions.length === 1 ? "answer this question" : `answer these ${questions.length} questions`}.
            </Typography>
            <PrepAnswersForm
              bookingId={flow.bookingId}
              questions={questions}
              onSubmitted={(booking) => {
                flow.update({ bookingData: booking });
                flow.goTo(4);
              }}
            />
          </Box>
        )}
        {flow.step === 4 && <ConfirmationStep />}
      </Box>
      {flow.step < 2 && !preview && (
        <Typography sx={{ mt: 3 }}>
          <Link component={RouterLink} to={`/search`}>
            Back to experts
          </Link>
        </Typography>
      )}
    </Box>
  );
}
