import { Component, type ErrorInfo, type ReactNode } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";

/** A screen that failed to render shows a message instead of a blank page. */
export class CrashBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("Screen failed to render", error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <Box sx={{ p: 4 }}>
        {/* Drawn like MUI's error Alert without loading it: every page carries this boundary (issue 19). */}
        <Box
          role="alert"
          sx={{ display: "flex", alignItems: "center", gap: 2, px: 2, py: 0.75, borderRadius: 1, bgcolor: "#fdeded", color: "#5f2120" }}
        >
          <Box sx={{ flexGrow: 1, py: 1 }}>Something went wrong, please try again.</Box>
          <Button color="inherit" onClick={() => window.location.assign("/")}>
            Home
          </Button>
        </Box>
      </Box>
    );
  }
}
