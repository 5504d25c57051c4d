import { Component, type ErrorInfo, type ReactNode } from "react";
import Alert from "@mui/material/Alert";
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
        <Alert severity="error" action={<Button color="inherit" onClick={() => window.location.assign("/")}>Home</Button>}>
          Something went wrong, please try again.
        </Alert>
      </Box>
    );
  }
}
