import type { Currency } from "@booking/contracts";
import type { DemoPerson } from "./accounts.ts";

// Who is in the demo marketplace: the experts with their profiles, weekly hours and sessions, and
// the creators who book them. Names and addresses are made up (example.com reaches nobody).

export type ExpertKey = "ava" | "marcus" | "sofia" | "priya" | "jordan";
export type CreatorKey = "casey" | "maya" | "leo" | "hana" | "daniel";

export type DemoSession = { title: string; price: number; length_minutes: 30 | 60 | 90 | 120; description: string };

export type DemoExpert = DemoPerson & {
  key: ExpertKey;
  title: string;
  timezone: string;
  tags: string[];
  bio: string;
  /** Weekly hours, Monday to Friday, on the expert's wall clock. */
  hours: { start_local: string; end_local: string };
  sessions: DemoSession[];
  /**
   * A session's price currency where it is not US dollars, by its place in `sessions`. The sessions
   * API takes no currency yet, so only the history's bookings of it carry it (and all their money).
   */
  currencies?: Partial<Record<number, Currency>>;
  /** The portrait's gradient, top to bottom. */
  colours: readonly [readonly [number, number, number], readonly [number, number, number]];
};

export const DEMO_CREATOR: DemoPerson & { key: CreatorKey } = {
  key: "casey",
  email: "creator@example.com",
  first_name: "Casey",
  last_name: "Rivera",
};

/** Creators whose bookings and reviews fill the history, beside the demo creator. */
export const OTHER_CREATORS: readonly (DemoPerson & { key: CreatorKey })[] = [
  { key: "maya", email: "maya@example.com", first_name: "Maya", last_name: "Thompson" },
  { key: "leo", email: "leo@example.com", first_name: "Leo", last_name: "Martins" },
  { key: "hana", email: "hana@example.com", first_name: "Hana", last_name: "Sato" },
  { key: "daniel", email: "daniel@example.com", first_name: "Daniel", last_name: "Brooks" },
];

const nineToFive = { start_local: "09:00", end_local: "17:00" };

/** The three experts every first start has. */
export const FIRST_EXPERTS: readonly DemoExpert[] = [
  {
    key: "ava",
    email: "ava@example.com",
    first_name: "Ava",
    last_name: "Chen",
    title: "Growth Strategist",
    timezone: "America/New_York",
    tags: ["Growth Strategy", "Content Strategy", "Community Building"],
    bio: "I have helped more than 200 creators grow an audience that pays.\n\nLet's find the next step for yours.",
    hours: nineToFive,
    colours: [
      [244, 143, 97],
      [183, 62, 92],
    ],
    sessions: [
      {
        title: "Audience growth plan",
        price: 150,
        length_minutes: 60,
        description: "A plan for the next 90 days of your channel: who to reach, what to post, how to measure it.",
      },
      {
        title: "Quick channel review",
        price: 60,
        length_minutes: 30,
        description: "Half an hour on your channel as a new viewer sees it, with three changes to make this week.",
      },
    ],
  },
  {
    key: "marcus",
    email: "marcus@example.com",
    // Based in London, his workshop is priced in pounds: his balance shows dollars and pounds apart.
    currencies: { 1: "GBP" },
    first_name: "Marcus",
    last_name: "Reed",
    title: "Brand Partnerships Advisor",
    timezone: "Europe/London",
    tags: ["Brand Strategy", "Revenue Strategy", "Fan Monetization"],
    bio: "Former agency lead. I negotiate brand deals for podcasters and makers.",
    hours: nineToFive,
    colours: [
      [72, 121, 196],
      [35, 52, 110],
    ],
    sessions: [
      {
        title: "Brand deal review",
        price: 200,
        length_minutes: 60,
        description: "Bring an offer or a contract: we go through the terms, the rate and what to ask for.",
      },
      {
        title: "Rate card workshop",
        price: 300,
        length_minutes: 90,
        description: "Build a rate card you can defend, from your numbers and what brands pay in your niche.",
      },
    ],
  },
  {
    key: "sofia",
    email: "sofia@example.com",
    first_name: "Sofia",
    last_name: "Alvarez",
    title: "Intellectual Property Lawyer",
    timezone: "America/Los_Angeles",
    tags: ["Legal Guidance", "Intellectual Property Law", "Business Strategy"],
    bio: "Contracts, trademarks and licensing for independent creators.",
    hours: nineToFive,
    colours: [
      [96, 173, 142],
      [30, 92, 86],
    ],
    sessions: [
      {
        title: "Contract check",
        price: 250,
        length_minutes: 60,
        description: "A lawyer's read of one contract before you sign: what it gives away and what to change.",
      },
    ],
  },
];

/** Two more experts of the lived-in marketplace, with sessions of other prices and lengths. */
export const MORE_EXPERTS: readonly DemoExpert[] = [
  {
    key: "priya",
    email: "priya@example.com",
    first_name: "Priya",
    last_name: "Nair",
    title: "YouTube Producer",
    timezone: "Europe/Berlin",
    tags: ["Video Production", "Content Strategy", "Growth Strategy"],
    bio: [
      "Ten years producing YouTube channels, from first upload to a million subscribers.",
      "I look at your videos the way the algorithm and your viewers do.",
    ].join("\n\n"),
    hours: { start_local: "10:00", end_local: "18:00" },
    colours: [
      [171, 120, 211],
      [84, 51, 140],
    ],
    sessions: [
      {
        title: "Thumbnail and title teardown",
        price: 90,
        length_minutes: 30,
        description: "Your last ten thumbnails and titles, taken apart and rebuilt for clicks that keep watching.",
      },
      {
        title: "Channel launch intensive",
        price: 280,
        length_minutes: 120,
        description: "Two hours to plan a channel launch: format, first twelve videos, production rhythm.",
      },
    ],
  },
  {
    key: "jordan",
    email: "jordan@example.com",
    first_name: "Jordan",
    last_name: "Okafor",
    title: "Podcast Growth Coach",
    timezone: "America/Chicago",
    tags: ["Podcasting", "Audience Growth", "Community Building"],
    bio: "I have launched 40 podcasts and coached their hosts past the first 10,000 downloads.",
    hours: { start_local: "11:00", end_local: "19:00" },
    colours: [
      [240, 190, 80],
      [196, 110, 40],
    ],
    sessions: [
      {
        title: "Podcast launch roadmap",
        price: 120,
        length_minutes: 60,
        description: "From idea to episode one: format, guests, equipment that is enough, and a launch week plan.",
      },
      {
        title: "Episode feedback session",
        price: 75,
        length_minutes: 30,
        description: "Send one episode ahead; we go through pacing, intro, audio and the ask at the end.",
      },
    ],
  },
];

/** The demo experts work Monday to Friday. */
export const WORKING_WEEK = ["monday", "tuesday", "wednesday", "thursday", "friday"] as const;

/** The questions every demo session asks before a booking. */
export const PREP_QUESTIONS = [
  "What would make this session a success for you?",
  "Where are you today?",
  "What have you tried so far?",
] as const;
