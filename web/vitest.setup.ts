import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { setSession } from "./src/shared/api-client.ts";

// findBy* and waitFor give up after 10 s, not 1: a screen answered by a fake API still renders
// late on a loaded CI machine running two test files at once, and a wait only costs time when it fails.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  setSession(null);
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
