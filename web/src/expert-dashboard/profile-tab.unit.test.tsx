import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ExpertProfile } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { ProfileEditor } from "./profile-tab.tsx";
import { tagsFrom, validateProfile } from "./profile-form.ts";

const empty: ExpertProfile = {
  id: null,
  slug: null,
  first_name: "",
  last_name: "",
  title: "",
  bio: "",
  tags: [],
  profile_image: null,
  published: false,
  verified: false,
};
// Signed up without names, so the form starts empty (see the prefill test).
const auth = signedInAs("expert", { expert_id: null, first_name: null, last_name: null });

describe("profile tab", () => {
  it("shows the spec's messages for missing names and title, and keeps Preview off until saved", async () => {
    const calls = fakeApi({});
    renderScreen(<ProfileEditor profile={empty} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Save Profile" }));
    expect(screen.getByText("First and Last name are required.")).toBeInTheDocument();
    expect(screen.getByText("Title is required.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Preview" })).toBeDisabled();
    expect(screen.getByText("Profile must be saved before preview is available.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("refuses a file that is not an image", async () => {
    renderScreen(<ProfileEditor profile={empty} />, { auth });
    const input = screen.getByLabelText("Profile Image");
    // The input is visually hidden behind the Choose Image button.
    const user = userEvent.setup({ pointerEventsCheck: 0, applyAccept: false });
    await user.upload(input, new File(["hello"], "notes.txt", { type: "text/plain" }));
    expect(await screen.findByText("Invalid file type. Please upload an image.")).toBeInTheDocument();
  });

  it("Save Profile on a published profile keeps it published; Unpublish asks first, then sends published false", async () => {
    const calls = fakeApi({ "PATCH /experts/me": (body) => ({ status: 200, body: { ...listed, ...(body as object) } }) });
    const listed: ExpertProfile = {
      ...empty,
      id: "expert-1",
      slug: "maya-lind-1",
      first_name: "Maya",
      last_name: "Lind",
      title: "Advisor",
      published: true,
    };
    renderScreen(<ProfileEditor profile={listed} />, { auth });
    expect(screen.queryByRole("button", { name: "Publish Profile" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Save Profile" }));
    expect(await screen.findByText("Your profile has been saved successfully!")).toBeInTheDocument();
    expect(calls[0]!.body).not.toHaveProperty("published");
    expect(screen.getByText("Published")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Unpublish Profile" }));
    expect(await screen.findByText("Unpublish your profile?")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Keep Published" }));
    await waitFor(() => expect(screen.queryByText("Unpublish your profile?")).not.toBeInTheDocument());
    expect(calls).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "Unpublish Profile" }));
    await userEvent.click(await screen.findByRole("button", { name: "Yes, Unpublish" }));
    expect(await screen.findByText("Your profile has been unpublished. Creators no longer see it.")).toBeInTheDocument();
    expect(calls[1]!.body).toMatchObject({ published: false });
    expect(await screen.findByRole("button", { name: "Publish Profile" })).toBeInTheDocument();
  });

  it("Save Profile on a new profile sends no publish decision (it starts unpublished), with trimmed tags, then says so", async () => {
    const calls = fakeApi({
      "PATCH /experts/me": (body) => ({ status: 200, body: { ...empty, ...(body as object), id: "expert-1", slug: "maya-lind-1" } }),
    });
    renderScreen(<ProfileEditor profile={empty} />, { auth });
    await userEvent.type(screen.getByLabelText(/First Name/), "Maya");
    await userEvent.type(screen.getByLabelText(/Last Name/), "Lind");
    await userEvent.type(screen.getByLabelText(/Title/), "Advisor");
    await userEvent.type(screen.getByLabelText("Tags"), "Brand, , Growth ");
    await userEvent.click(screen.getByRole("button", { name: "Save Profile" }));
    expect(await screen.findByText("Your profile has been saved successfully!")).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      method: "PATCH",
      path: "/experts/me",
      body: { first_name: "Maya", last_name: "Lind", title: "Advisor", tags: ["Brand", "Growth"], profile_image: null },
    });
    expect(calls[0]!.body).not.toHaveProperty("published");
    await waitFor(() => expect(screen.getByRole("button", { name: "Preview" })).toBeEnabled());
  });

  it("a failed save shows the banner and the message", async () => {
    fakeApi({ "PATCH /experts/me": { status: 400, body: { code: "profile_title_required", message: "Title is required." } } });
    renderScreen(<ProfileEditor profile={{ ...empty, first_name: "Maya", last_name: "Lind", title: "Advisor" }} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Publish Profile" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("There was an error with your submission");
    expect(alert).toHaveTextContent("Title is required.");
  });

  it("Remove puts back the placeholder and deletes the stored image on the next save", async () => {
    const calls = fakeApi({
      "DELETE /experts/me/image": { status: 204 },
      "PATCH /experts/me": (body) => ({ status: 200, body: { ...empty, ...(body as object), slug: "maya" } }),
    });
    renderScreen(
      <ProfileEditor
        profile={{
          ...empty,
          first_name: "Maya",
          last_name: "Lind",
          title: "Advisor",
          slug: "maya",
          profile_image: "/api/v1/media/experts/e/profile?v=1",
        }}
      />,
      { auth },
    );
    expect(screen.getByTestId("profile-image-preview")).toHaveAttribute("src", "/api/v1/media/experts/e/profile?v=1");
    await userEvent.click(screen.getByRole("button", { name: "Remove" }));
    expect(screen.queryByTestId("profile-image-preview")).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.click(screen.getByRole("button", { name: "Save Profile" }));
    await screen.findByText("Your profile has been saved successfully!");
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["DELETE /experts/me/image", "PATCH /experts/me"]);
    expect(calls[1]!.body).toMatchObject({ profile_image: null });
  });

  it("a first profile starts from the names given at sign-up; a saved one keeps its own", () => {
    const { unmount } = renderScreen(<ProfileEditor profile={empty} />, {
      auth: signedInAs("expert", { expert_id: null, first_name: "Maya", last_name: "Lind" }),
    });
    expect(screen.getByLabelText(/First Name/)).toHaveValue("Maya");
    expect(screen.getByLabelText(/Last Name/)).toHaveValue("Lind");
    unmount();
    renderScreen(<ProfileEditor profile={{ ...empty, id: "e", first_name: "Augusta", last_name: "King", title: "Advisor" }} />, {
      auth: signedInAs("expert", { first_name: "Maya", last_name: "Lind" }),
    });
    expect(screen.getByLabelText(/First Name/)).toHaveValue("Augusta");
  });

  it("rules", () => {
    expect(validateProfile({ first_name: "A", last_name: " ", title: "", bio: "", tags: "" })).toEqual({
      names: "First and Last name are required.",
      title: "Title is required.",
    });
    expect(tagsFrom(" a, ,b ,")).toEqual(["a", "b"]);
  });
});
