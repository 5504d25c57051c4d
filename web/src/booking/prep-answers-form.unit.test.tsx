import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeApi, renderScreen, signedInAs } from "../shared/screen-harness.tsx";
import { PrepAnswersForm } from "./prep-answers-form.tsx";
import { prepQuestionsOf } from "./prep-answers.ts";

const questions: [string, string, string] = ["Which brand?", "What offer?", "What worries you?"];
const auth = signedInAs("creator");

describe("preparation answers", () => {
  it("requires all three answers", async () => {
    const calls = fakeApi({});
    renderScreen(<PrepAnswersForm bookingId="b-1" questions={questions} onSubmitted={() => undefined} />, { auth });
    await userEvent.type(screen.getByLabelText(/Which brand/), "Nike");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please answer all three preparation questions.");
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
    expect(calls[0]).toMatchObject({ method: "PATCH", body: { prep_response_1: "answer 1", prep_response_2: "answer 2", prep_response_3: "answer 3" } });
    expect(onSubmitted).not.toHaveBeenCalled();
  });

  it("says 'No booking found' without a booking", async () => {
    renderScreen(<PrepAnswersForm bookingId={null} questions={questions} initial={["a", "b", "c"]} onSubmitted={() => undefined} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("No booking found")).toBeInTheDocument();
  });

  it("always asks three questions, filling in for the ones the expert did not ask", () => {
    expect(prepQuestionsOf({ prep_questions: ["Goal?"] })).toEqual(["Goal?", "What would make this session a success for you?", "Where are you today?"]);
    expect(prepQuestionsOf({ prep_question_1: "A?", prep_question_2: "B?", prep_question_3: "C?" })).toEqual(["A?", "B?", "C?"]);
  });
});
