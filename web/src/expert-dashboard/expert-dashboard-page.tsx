import { Link as RouterLink, Navigate, useParams } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { useFlags } from "../shared/flags.ts";
import { Page } from "../shared/layout.tsx";
import { AccountTab } from "./account-tab.tsx";
import { BookingsTab } from "./bookings-tab.tsx";
import { PaymentsTab } from "./payments-tab.tsx";
import { ProfileTab } from "./profile-tab.tsx";
import { AdminViewingNotice } from "../shared/admin-viewing-notice.tsx";
import { useDashboardSubject } from "../shared/dashboard-subject.ts";
import { ScheduleTab } from "./schedule-tab.tsx";
import { SessionsTab } from "./sessions-tab.tsx";
import { ApplicationTab } from "../vetting/application-tab.tsx";
import { useUnreadMessages } from "../conversation/conversation-queries.ts";
import { UnreadMessagesBadge } from "../conversation/unread-badges.tsx";

type TabName = "bookings" | "payments" | "sessions" | "slots" | "profile" | "application" | "account";

const TABS: { name: TabName; label: string; title: string; segment: string }[] = [
  { name: "bookings", label: "Bookings", title: "Your Bookings", segment: "bookings" },
  { name: "payments", label: "Payments", title: "Your Payments", segment: "payments" },
  { name: "sessions", label: "Sessions", title: "Your Sessions", segment: "" },
  { name: "slots", label: "Schedule", title: "Your Schedule", segment: "slots" },
  { name: "profile", label: "Profile", title: "Your Profile", segment: "profile" },
  { name: "application", label: "Application", title: "Your Application", segment: "application" },
  { name: "account", label: "Account", title: "Your Account", segment: "account" },
];

export function ExpertDashboardPage() {
  const { id = "", tab } = useParams();
  const flags = useFlags();
  const auth = useAuth();
  const shown = TABS.filter(
    (t) =>
      (t.name !== "bookings" || flags.showBookingsTab) &&
      (t.name !== "payments" || flags.showPaymentsTab) &&
      (t.name !== "account" || flags.showAccountTab),
  );
  const current = shown.find((t) => (tab ?? "") === t.segment || tab === t.name);
  useDocumentTitle(current?.title ?? "Expert dashboard");
  // Hooks before the early return below: every render calls the same ones.
  const subject = useDashboardSubject();
  const unread = useUnreadMessages(!subject.byAdmin);
  if (!current) return <Navigate to={`/expert-dashboard/${id}`} replace />;
  // An admin looking at an expert's dashboard works on that expert's sessions and schedule.
  const expertId = subject.byAdmin ? subject.who : (auth.user?.expert_id ?? null);

  return (
    <Page>
      <Box sx={{ borderBottom: 1, borderColor: "divider", mb: 3 }}>
        <Tabs value={current.name} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile aria-label="Dashboard sections">
          {shown.map((t) => (
            <Tab
              key={t.name}
              value={t.name}
              label={t.label}
              component={RouterLink}
              to={`/expert-dashboard/${id}${t.segment ? `/${t.segment}` : ""}`}
            />
          ))}
        </Tabs>
      </Box>
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 2, flexWrap: "wrap", mb: 1 }}>
        <Typography variant="h4" component="h1">
          {subject.byAdmin ? current.title.replace(/^Your /, "Expert's ") : current.title}
        </Typography>
        {/* The messages of every booking (issue 31.3): each booking's count is on the Bookings tab. */}
        {!subject.byAdmin && <UnreadMessagesBadge total={unread.total} />}
      </Box>
      {subject.byAdmin && <AdminViewingNotice />}
      {current.name === "bookings" && <BookingsTab />}
      {current.name === "payments" && <PaymentsTab />}
      {current.name === "sessions" && <SessionsTab expertId={expertId} />}
      {current.name === "slots" && <ScheduleTab expertId={expertId} />}
      {current.name === "profile" &&
        (subject.byAdmin ? <Alert severity="info">Admins review and vet expert profiles in the console.</Alert> : <ProfileTab />)}
      {current.name === "application" &&
        (subject.byAdmin ? <Alert severity="info">Admins review expert applications in the console.</Alert> : <ApplicationTab />)}
      {current.name === "account" && <AccountTab />}
    </Page>
  );
}
