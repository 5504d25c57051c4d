import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Header } from "./layout.tsx";
import { renderScreen, signedInAs } from "../../test/screen-harness.tsx";

// Issue 27.5: "Welcome back, Nina!" on the very first visit.

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

const nina = signedInAs("creator", { id: "u-nina", first_name: "Nina" });

describe("the header's greeting", () => {
  it("welcomes a first visit, and keeps saying so from page to page in that tab", () => {
    const first = renderScreen(<Header />, { auth: nina });
    expect(screen.getByTestId("welcome")).toHaveTextContent("Welcome, Nina!");
    first.unmount();
    renderScreen(<Header />, { auth: nina });
    expect(screen.getByTestId("welcome")).toHaveTextContent("Welcome, Nina!");
  });

  it("welcomes her back on a later visit", () => {
    renderScreen(<Header />, { auth: nina }).unmount();
    sessionStorage.clear(); // a new tab, another day
    renderScreen(<Header />, { auth: nina });
    expect(screen.getByTestId("welcome")).toHaveTextContent("Welcome back, Nina!");
  });
});
