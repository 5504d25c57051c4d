import { Card, CardContent, CardHeader } from "@mui/material";
import type { ReactNode } from "react";

export function DashboardCard({
  title,
  subheader,
  action,
  children,
  testId,
}: {
  title: string;
  subheader?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Card sx={{ height: "100%" }} data-testid={testId} component="section" aria-label={title}>
      <CardHeader title={title} subheader={subheader} action={action} slotProps={{ title: { variant: "h6", component: "h2" } }} />
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
    </Card>
  );
}
