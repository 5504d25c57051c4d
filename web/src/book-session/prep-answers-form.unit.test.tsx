import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Booking, Session } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { BookSessionPage } from "./book-session-page.tsx";
import { PrepAnswersForm } from "./prep-answers-form.tsx";
import { prepQuestionsOf } from "./prep-answers.ts";

const questions = ["Which brand?", "What offer?", "What worries you?"];
const auth = signedInAs("creator");

beforeEach(() => sessionStorage.clear());

describe("preparation answers", () => {
  it("requires every answer", async () => {
    const calls = fakeApi({});
    renderScreen(<PrepAnswersForm bookingId="b-1" questions={questions} onSubmitted={() => undefined} />, { auth });
    await userEvent.type(screen.getByLabelText(/Which brand/), "Nike");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please answer each preparation question.");
    expect(screen.getAllByText("Please answer this question.")).toHaveLength(2);
    expect(calls).toHaveLength(0);
  });

  it("sends the three answers and reports a failure in the spec's words", async () => {
    const onSubmitted = vi.fn();
    const calls = fakeApi({ "PATCH /bookings/b-1/prep": { status: 500, body: { code: "something_went_wrong", message: "x" } } });
    renderScreen(<PrepAnswersForm bookingId="b-1" questions={questions} onSubmitted={onSubmitted} />, { auth });
    for (const [i, q] of questions.entries()) await userEvent.type(screen.getByLabelText(new RegExp(q.slice(0, 8))), `answer ${i + 1}`);
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("Something went wrong submitting your answers.")).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      method: "PATCH",
      body: { prep_response_1: "answer 1", prep_response_2: "answer 2", prep_response_3: "answer 3" },
    });
    expect(onSubmitted).not.toHaveBeenCalled();
  });

  it("says 'No booking found' without a booking", async () => {
    renderScreen(<PrepAnswersForm bookingId={null} questions={questions} initial={["a", "b", "c"]} onSubmitted={() => undefined} />, {
      auth,
    });
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("No booking found")).toBeInTheDocument();
  });

  it("asks exactly the questions the expert wrote (issue 27.10)", () => {
    expect(prepQuestionsOf({ prep_questions: ["Goal?"] })).toEqual(["Goal?"]);
    expect(prepQuestionsOf({ prep_question_1: "A?", prep_question_2: "B?", prep_question_3: null })).toEqual(["A?", "B?"]);
    expect(prepQuestionsOf({ prep_question_1: "A?", prep_question_2: "B?", prep_question_3: "C?" })).toEqual(["A?", "B?", "C?"]);
  });

  it("in the wizard, answers the expert's two questions only and sends two answers (issue 27.10)", async () => {
    const session = {
      id: "s-1",
      expert_id: "e-1",
      title: "Deck review",
      description: "",
      price: 150,
      length_minutes: 60,
      prep_question_1: "Goal?",
      prep_question_2: "Audience?",
      prep_question_3: null,
      prep_questions: ["Goal?", "Audience?"],
      session_details: "",
      ideal_for: [],
      status: "published",
      instant_booking: false,
      currency: "USD",
      full_refund_hours: 24,
      reschedule_hours: 24,
      expert: { id: "e-1", name: "Maya Lind", first_name: "Maya" },
    } as Session;
    const booking = {
      id: "b-1",
      status: "pending",
      paid: true,
      session_id: "s-1",
      session_title: "Deck review",
      session: { title: "Deck review", price: 150, expertFirstName: "Maya" },
      scheduled_time: "2030-01-01T10:00:00.000Z",
      prep_question_1: "Goal?",
      prep_question_2: "Audience?",
      prep_question_3: null,
    } as Booking;
    sessionStorage.setItem(
      "expert-sessions.booking-flow.s-1",
      JSON.stringify({ bookingId: "b-1", bookingData: booking, scheduledTime: booking.scheduled_time, step: 3, reached: 3, paid: true }),
    );
    const calls = fakeApi({
      "GET /sessions/s-1": { status: 200, body: session },
      "PATCH /bookings/b-1/prep": { status: 200, body: { ...booking, prep_response_1: "Grow", prep_response_2: "Makers" } },
    });
    renderScreen(<BookSessionPage />, { route: "/book-session/s-1", path: "/book-session/:id", auth });
    await screen.findByTestId("wizard-step-3");
    expect(screen.getAllByRole("textbox")).toHaveLength(2);
    expect(screen.queryByText(/What would make this session a success/)).not.toBeInTheDocument();
    expect(screen.getByText(/answer these 2 questions/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Goal/), "Grow");
    await userEvent.type(screen.getByLabelText(/Audience/), "Makers");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByTestId("wizard-step-4")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ prep_response_1: "Grow", prep_response_2: "Makers" });
  });
});
