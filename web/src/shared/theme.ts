import { createTheme } from "@mui/material/styles";

// Colours chosen for contrast (WCAG AA) on white and on the brand colour.
export const theme = createTheme({
  palette: {
    primary: { main: "#4527a0" },
    secondary: { main: "#00695c" },
    success: { main: "#1b5e20" },
    warning: { main: "#8a4b00" },
    error: { main: "#b71c1c" },
    info: { main: "#01579b" },
    text: { secondary: "#4a4a55" },
    background: { default: "#fafafc" },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
    button: { textTransform: "none", fontWeight: 600 },
  },
});
