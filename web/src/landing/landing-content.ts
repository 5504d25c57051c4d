// The landing page's copy: sample experts, the 33 creator challenges, benefits and the FAQ.

export const SAMPLE_EXPERTS = [
  {
    name: "Jordan Blake",
    title: "Growth Strategist",
    tags: ["Growth Strategy", "Content Strategy", "Community Building"],
    colors: ["#4527a0", "#7e57c2"],
  },
  {
    name: "Priya Shah",
    title: "Brand Partnerships Advisor",
    tags: ["Brand Strategy", "Revenue Strategy", "Fan Monetization", "Memberships"],
    colors: ["#00695c", "#26a69a"],
  },
  {
    name: "Daniel Okafor",
    title: "Entertainment Lawyer",
    tags: ["Legal Guidance", "Business Strategy", "Intellectual Property Law"],
    colors: ["#ad1457", "#ec407a"],
  },
] as const;

export const CREATOR_CHALLENGES = [
  "Growing an audience",
  "Landing brand deals",
  "Launching a podcast",
  "Contract negotiation",
  "Taxes and finances",
  "Pricing sponsorships",
  "Building a media kit",
  "Starting a newsletter",
  "Launching merch",
  "Memberships and subscriptions",
  "Protecting my IP",
  "Trademarking my name",
  "Hiring an editor",
  "Managing a team",
  "Going full time",
  "Pitching to brands",
  "Growing on YouTube",
  "Short-form video strategy",
  "Live streaming",
  "Community building",
  "Fan monetization",
  "Licensing my content",
  "Setting up an LLC",
  "Budgeting and cash flow",
  "Press and PR",
  "Booking speaking gigs",
  "Writing a book deal",
  "Launching a course",
  "Diversifying revenue",
  "Analytics and insights",
  "Burnout and boundaries",
  "Negotiating with agencies",
  "Planning a product launch",
] as const;

export const BENEFITS = [
  { title: "Clarity on the support you need", text: "Tell us your goals and we help you see which kind of expert moves you forward." },
  {
    title: "Direct access to the right expert",
    text: "Book a one-to-one video session with a vetted professional, at a price shown up front.",
  },
  { title: "Clear takeaways you can act on", text: "Every session ends with key takeaways, next steps and a written recap." },
] as const;

export const FAQ = [
  {
    q: "Who are the experts?",
    a:
      "Strategists, brand-partnership advisors, marketing and PR specialists, creative directors, lawyers and " +
      "financial advisors who work with creators. Every expert goes through our vetting process.",
  },
  { q: "How much does a session cost?", a: "Each expert sets their own rates. You always see the price before you book." },
  {
    q: "How do I book a session?",
    a:
      "Pick an expert and a session, choose a time shown in your own timezone, pay by card and answer a few " +
      "preparation questions. Scheduling and payment happen in one place.",
  },
  {
    q: "What happens after I book?",
    a: "The expert reviews your request and your answers, then confirms the time or proposes another one. You see every change on your dashboard.",
  },
  { q: "What do I get at the end of a session?", a: "Key takeaways, suggested next steps and a written recap you can download." },
  { q: "Can I cancel a booking?", a: "Yes. You can cancel from your dashboard; paid sessions that are cancelled are refunded." },
  { q: "How are payments handled?", a: "Payments go through a third-party card payment provider. We never see your full card number." },
] as const;
