import { Link as RouterLink } from "react-router-dom";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useDocumentTitle } from "../shared/document-title.ts";
import { Page } from "../shared/layout.tsx";

/** What the marketplace is and how it is run (issue 27.3: the spec's page said only "coming soon"). */
const ABOUT_SECTIONS = [
  {
    title: "Why we exist",
    text:
      "Creators run businesses on their own: brand deals, contracts, taxes, teams, audiences. The people who " +
      "know those things are hard to reach and harder to judge. Expert Sessions puts the right expert a video " +
      "call away, at a price shown up front.",
  },
  {
    title: "How it works",
    text:
      "Experts publish short, time-boxed sessions with their own prices and hours. A creator picks a time in " +
      "their own timezone, pays by card and answers a few preparation questions, so the session starts on the " +
      "real problem. The expert accepts, asks for more information or proposes another time, and after the call " +
      "writes the key takeaways and next steps.",
  },
  {
    title: "Who the experts are",
    text:
      "Strategists, brand-partnership advisors, marketers, creative directors, lawyers and financial advisors " +
      "who work with creators. Experts marked Verified have been reviewed by our team, and every rating comes " +
      "from a creator who completed a session.",
  },
  {
    title: "Fair to both sides",
    text:
      "A time held for you is never sold twice, cancellations follow one published policy, and a refund owed is " +
      "paid back to the card it came from. Experts keep their calendars and their prices; creators keep their " +
      "money until a session is theirs.",
  },
] as const;

export function AboutPage() {
  useDocumentTitle("About");
  return (
    <Page>
      <Typography variant="h4" component="h1" gutterBottom>
        About Expert Sessions
      </Typography>
      <Typography sx={{ mb: 3, fontSize: 18 }}>
        A marketplace where creators book paid one-to-one video sessions with vetted experts.
      </Typography>
      {ABOUT_SECTIONS.map((s) => (
        <Box component="section" key={s.title} sx={{ mb: 3 }}>
          <Typography variant="h5" component="h2" gutterBottom>
            {s.title}
          </Typography>
          <Typography>{s.text}</Typography>
        </Box>
      ))}
      <Typography>
        Questions? The{" "}
        <Link component={RouterLink} to="/help">
          help page
        </Link>{" "}
        explains booking, payment and refunds, and reaches our support team.
      </Typography>
    </Page>
  );
}

export function ReleaseNotesPage() {
  useDocumentTitle("Release notes");
  return (
    <Page>
      <Typography variant="h4" component="h1" gutterBottom>
        Release notes
      </Typography>
      <Typography>Release notes will be published here.</Typography>
    </Page>
  );
}
