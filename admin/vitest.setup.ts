import { configure } from "@testing-library/react";

// findBy* and waitFor give up after 10 s, not 1 (as in the web app's tests): a console screen answered by a fake data
// provider still renders late, and a dialog still closes late, on a loaded CI machine running two test files at once.
configure({ asyncUtilTimeout: 10_000 });
