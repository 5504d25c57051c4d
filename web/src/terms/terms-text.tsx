import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";

// The Terms and Conditions (spec section 2: 17 sections; section 9: liability cap, dispute
// resolution, arbitration, minimum age).

export const TERMS_SECTIONS: { title: string; paragraphs: string[] }[] = [
  {
    title: "Acceptance",
    paragraphs: [
      'By creating an account, booking a session or offering a session on Expert Sessions (the "Platform"), ' +
        "you agree to these Terms and Conditions. If you do not agree, do not use the Platform.",
      "You must be at least 18 years old to use the Platform.",
    ],
  },
  {
    title: "Definitions",
    paragraphs: [
      '"Creator" means a user who books sessions. "Expert" means a user who offers sessions. "Session" means a ' +
        'paid, time-boxed, one-to-one virtual meeting between a Creator and an Expert. "Content" means any text, ' +
        "image or other material you provide.",
    ],
  },
  {
    title: "Right to Modify",
    paragraphs: [
      "We may change these Terms from time to time. When we do, we will ask you to accept the new version before you continue to use the Platform.",
    ],
  },
  {
    title: "Role of the Platform",
    paragraphs: [
      "The Platform is only a venue that connects Creators with Experts. Experts are independent providers, " +
        "not our employees or agents. We do not give professional advice and are not a party to the agreement " +
        "between a Creator and an Expert.",
    ],
  },
  {
    title: "Expert Listings",
    paragraphs: [
      "Experts set their own rates, and prices are shown before booking. Experts are responsible for the " +
        "accuracy of their profiles and sessions. Our vetting process does not guarantee any result.",
    ],
  },
  {
    title: "Payments and Fees",
    paragraphs: [
      "Payments are processed by a third-party card payment provider. By paying, you also agree to that " +
        "provider's terms. A session is booked once it is paid and confirmed; cancelled paid sessions are " +
        "refunded to the original payment method.",
    ],
  },
  {
    title: "Taxes",
    paragraphs: [
      "Each user is responsible for the taxes that apply to them. Experts are responsible for reporting and paying taxes on their earnings.",
    ],
  },
  {
    title: "User Conduct",
    paragraphs: [
      "Be respectful and lawful. Do not harass other users, misrepresent yourself, share another person's " +
        "private information, or try to take payments outside the Platform.",
    ],
  },
  {
    title: "Intellectual Property",
    paragraphs: [
      "You keep the rights to your Content and give us a licence to host and show it in order to run the " +
        "Platform. The Platform's name, logo and software belong to us.",
    ],
  },
  {
    title: "Confidentiality",
    paragraphs: [
      "Information shared in a session is confidential between the Creator and the Expert, unless both agree otherwise or the law requires disclosure.",
    ],
  },
  {
    title: "Disclaimers",
    paragraphs: ['The Platform is provided "as is" and "as available", without warranties of any kind, to the extent the law allows.'],
  },
  {
    title: "Limitation of Liability",
    paragraphs: [
      "To the extent the law allows, our total liability for any claim is limited to the greater of US $100 or " +
        "the amount you paid us in the 6 months before the claim arose.",
    ],
  },
  {
    title: "Indemnification",
    paragraphs: ["You agree to indemnify us against claims that arise from your Content, your sessions or your breach of these Terms."],
  },
  {
    title: "Termination",
    paragraphs: [
      "You may close your account at any time. We may suspend or close an account that breaks these Terms. " +
        "Sections that by their nature should survive termination will survive it.",
    ],
  },
  {
    title: "Dispute Resolution",
    paragraphs: [
      "Before starting a formal proceeding, contact us and try to resolve the dispute informally for 30 days. " +
        "If that fails, disputes are resolved by binding arbitration under the consumer arbitration rules of the " +
        "administering body, governed by the laws of California. Hearings take place virtually, by phone, or in " +
        "Los Angeles.",
    ],
  },
  {
    title: "Community Guidelines",
    paragraphs: ["Arrive on time, prepare for your sessions, give honest feedback and keep discussions professional."],
  },
  {
    title: "Contact",
    paragraphs: ["Questions about these Terms? Use the Need help? link at the top or bottom of any page."],
  },
];

export function TermsSections({ headingLevel = "h2" }: { headingLevel?: "h2" | "h3" }) {
  return (
    <Box component="ol" sx={{ pl: 3, m: 0 }}>
      {TERMS_SECTIONS.map((section) => (
        <Box component="li" key={section.title} sx={{ mb: 2 }}>
          <Typography component={headingLevel} variant="h6">
            {section.title}
          </Typography>
          {section.paragraphs.map((p) => (
            <Typography key={p} sx={{ mt: 1 }}>
              {p}
            </Typography>
          ))}
        </Box>
      ))}
    </Box>
  );
}
