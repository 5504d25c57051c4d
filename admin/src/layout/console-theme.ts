import { deepmerge } from "@mui/utils";
import { defaultTheme, type RaThemeOptions } from "react-admin";

// react-admin's theme with colours that read (issue 27.21): its blue app bar (#2196f3) under
// white text, MUI's primary on the page's off-white, and warning and info chips and buttons all
// fell short of the 4.5:1 contrast that small text needs. Each colour below has at least 5.5:1
// against white, so white text on it and it on white both read.
export const consoleTheme: RaThemeOptions = deepmerge(defaultTheme, {
  palette: {
    primary: { main: "#1565c0" },
    secondary: { light: "#5e92f3", main: "#1565c0", dark: "#003c8f", contrastText: "#fff" },
    warning: { main: "#a84c00", contrastText: "#fff" },
    info: { main: "#01579b", contrastText: "#fff" },
  },
  components: {
    // react-admin's loading spinners (the app bar's, a list's) say nothing to a screen reader otherwise.
    MuiCircularProgress: { defaultProps: { "aria-label": "Loading" } },
  },
});
