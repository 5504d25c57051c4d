import type { SessionNotes } from "@booking/contracts";
import type { CreatorKey, ExpertKey } from "./cast.ts";

// What happened in the demo marketplace before today: who booked whom, when, what they wrote
// before the session, the expert's notes after it, and the review left. Days count from today on
// the expert's calendar (negative: past); a weekend day moves to the Friday before (the Monday
// after, for one to come). Hours are on the expert's wall clock.

export type Review = { rating: 4 | 5; text: string; reply?: string };

export type PastBooking = {
  expert: ExpertKey;
  /** Which of the expert's sessions (cast.ts order). */
  session: number;
  creator: CreatorKey;
  day: number;
  hour: number;
  /** Days between the request and the session's day. */
  lead: number;
  prep: [string, string, string];
  /** The expert's notes after the session; every past one has them. */
  notes?: SessionNotes;
  review?: Review;
};

const notes = (summary: string, takeaways: string[], suggestedActions: string[], recap = ""): SessionNotes => ({
  summary,
  recap,
  takeaways,
  suggestedActions,
});

/** Sessions that took place (completed by the system once over), with notes and, mostly, a review. */
export const PAST_BOOKINGS: readonly PastBooking[] = [
  {
    expert: "jordan",
    session: 0,
    creator: "maya",
    day: -35,
    hour: 12,
    lead: 5,
    prep: [
      "A launch date I can keep and a format I will not get bored of.",
      "Three pilot episodes recorded, no artwork, no feed yet.",
      "I listened to a lot of advice videos and changed my mind every week.",
    ],
    notes: notes(
      "We settled the format (20-minute solo episodes, one guest a month) and a launch on the first Tuesday of next month.",
      ["Launch with three episodes, not one", "Record in batches of four", "Artwork matters more than the trailer"],
      ["Book two guests for month two", "Set up the feed on a private link first"],
    ),
    review: {
      rating: 5,
      text: "Jordan cut through weeks of dithering in one hour. I left with a launch date and a format I actually like.",
    },
  },
  {
    expert: "ava",
    session: 0,
    creator: "casey",
    day: -33,
    hour: 10,
    lead: 6,
    prep: [
      "A posting plan I can keep up with a day job.",
      "4,200 followers, growth flat since spring.",
      "Posting every day for a month; I burned out.",
    ],
    notes: notes(
      "Casey's audience responds to behind-the-scenes posts, not polished tutorials. We built a three-post-a-week rhythm around them.",
      [
        "Three posts a week beats seven you cannot keep up",
        "Your behind-the-scenes posts get 3x the saves",
        "Reply to every comment in the first hour",
      ],
      ["Draft next week's three posts on Sunday", "Try one collaboration post this month", "Check saves, not likes, on Fridays"],
      "We went through the last 60 posts and sorted them by saves and shares. The pattern was clear: process beats polish.",
    ),
    review: {
      rating: 5,
      text: "Ava looked at my numbers before the call and came with a plan I can keep up with a day job. Two days in, it already feels lighter.",
      reply: "Thank you, Casey! Your process posts are the heart of your channel. Keep them coming.",
    },
  },
  {
    expert: "marcus",
    session: 1,
    creator: "hana",
    day: -30,
    hour: 10,
    lead: 7,
    prep: [
      "A rate card I can send without apologising for it.",
      "Two brand deals last year, both underpriced.",
      "Asked friends what they charge; everyone said something different.",
    ],
    notes: notes(
      "We priced Hana's three formats from her reach and engagement, with a floor she will not go below.",
      ["Your engagement rate justifies a premium", "Bundle usage rights separately", "Never quote in the first email"],
      ["Send the new rate card to the two brands from last year", "Add a usage-rights line to every quote"],
    ),
    review: {
      rating: 5,
      text: "Worth every cent. Marcus showed me I had been charging a third of what my numbers support.",
      reply: "Glad it helped, Hana. Let me know how the renegotiation goes.",
    },
  },
  {
    expert: "sofia",
    session: 0,
    creator: "leo",
    day: -28,
    hour: 11,
    lead: 5,
    prep: [
      "Know whether I can sign this sponsorship contract as it is.",
      "The contract is attached; they want an answer this week.",
      "Read it twice; the rights clause worries me.",
    ],
    notes: notes(
      "The contract assigned Leo's footage to the sponsor for ever. We marked the clauses to change and drafted the wording.",
      ["Licence, don't assign, your footage", "Cap the exclusivity at 30 days", "Payment terms should be net 30, not net 90"],
      ["Send the marked-up contract back", "Keep a copy of every version you sign"],
    ),
    review: {
      rating: 5,
      text: "Sofia spotted a clause that would have given away my footage for good. Clear, fast and practical.",
      reply: "That clause shows up a lot. Glad we caught it before you signed, Leo.",
    },
  },
  {
    expert: "ava",
    session: 1,
    creator: "maya",
    day: -26,
    hour: 14,
    lead: 3,
    prep: [
      "A fresh pair of eyes on my channel page.",
      "Launched the channel two months ago.",
      "Copied the layout of a bigger channel I like.",
    ],
    notes: notes(
      "Quick review of Maya's channel page as a first-time visitor sees it.",
      ["Your banner does not say what the channel is about", "Pin your best episode, not your newest"],
      ["Rewrite the banner line", "Make a 'start here' playlist"],
    ),
    review: { rating: 5, text: "Half an hour, three concrete changes, and my channel page finally makes sense to new visitors." },
  },
  {
    expert: "priya",
    session: 0,
    creator: "daniel",
    day: -24,
    hour: 11,
    lead: 3,
    prep: ["Better click-through on my videos.", "Click-through is around 3%.", "A/B tested two thumbnails once."],
    notes: notes(
      "We rebuilt Daniel's thumbnail template around one face, one object and three words at most.",
      ["One idea per thumbnail", "Titles promise, thumbnails show", "Test against your own average, not other channels"],
      ["Remake the last three thumbnails with the template", "Write five title options per video"],
    ),
    review: { rating: 5, text: "Priya redid one of my thumbnails live during the call. That video's click-through went from 3% to 7%." },
  },
  {
    expert: "jordan",
    session: 1,
    creator: "leo",
    day: -21,
    hour: 15,
    lead: 4,
    prep: ["Honest feedback on episode 12.", "Downloads dropping off after minute five.", "Shortened the intro a bit."],
    notes: notes(
      "The episode opened with three minutes of housekeeping. We moved the hook to the first 30 seconds.",
      ["Start with the best moment", "Housekeeping goes at the end", "Your audio level drops when you turn to the guest"],
      ["Re-cut episode 12's first five minutes", "Move the mic closer for interviews"],
    ),
    review: {
      rating: 4,
      text: "Very useful feedback on pacing. Would have liked a bit more time on the audio side, but the intro fix alone was worth it.",
      reply: "Thanks, Leo! Book a follow-up when the next episode is out and we will go deeper on audio.",
    },
  },
  {
    expert: "ava",
    session: 0,
    creator: "leo",
    day: -19,
    hour: 11,
    lead: 5,
    prep: [
      "A growth plan for the podcast's video clips.",
      "Clips get views but nobody follows through to the show.",
      "Posting clips on three platforms.",
    ],
    notes: notes(
      "Leo's clips travel, but they do not point anywhere. We built a path from clip to episode.",
      ["Every clip ends with where to hear the rest", "One platform done well beats three done thinly"],
      ["Add an end card to every clip", "Track clicks to the show for a month"],
    ),
    review: { rating: 4, text: "Good session with a clear plan. Some of it I had heard before, but the clip-to-episode path is working." },
  },
  {
    expert: "priya",
    session: 1,
    creator: "hana",
    day: -18,
    hour: 13,
    lead: 6,
    prep: [
      "Plan the launch of my second channel.",
      "My first channel has 80k subscribers; the new one will be about ceramics.",
      "Sketched ten video ideas.",
    ],
    notes: notes(
      "Two hours on the ceramics channel: a format, the first twelve videos and a production rhythm Hana can keep with her main channel.",
      [
        "Launch with a series, not single videos",
        "Cross-promote once, then let the new channel stand alone",
        "Film two videos per studio day",
      ],
      ["Storyboard the first three episodes", "Book four studio days for next month"],
    ),
    review: {
      rating: 5,
      text: "Two hours that saved me months. Priya knows production inside out and was generous with her templates.",
      reply: "It was a joy to plan, Hana. Send me the first episode when it is up!",
    },
  },
  {
    expert: "marcus",
    session: 0,
    creator: "daniel",
    day: -16,
    hour: 14,
    lead: 4,
    prep: ["Should I take this brand deal?", "First offer from a brand I like, $800 for one video.", "Looked up their other sponsorships."],
    notes: notes(
      "The offer was fair on the fee but asked for a year of exclusivity. We countered on exclusivity, not money.",
      ["Exclusivity is worth more than the fee", "Counter with one change, not five"],
      ["Reply with the counter by Thursday", "Ask for a second video at a package rate"],
    ),
    review: { rating: 5, text: "Marcus helped me negotiate my first brand deal. Calm, clear and on my side." },
  },
  {
    expert: "sofia",
    session: 0,
    creator: "maya",
    day: -14,
    hour: 10,
    lead: 6,
    prep: ["Protect my show's name.", "Another podcast started using a very similar name.", "Sent them a friendly message, no answer."],
    notes: notes(
      "We went through trademark options for Maya's show name and a first letter to the other podcast.",
      ["File in the class that covers podcasts", "Keep evidence of first use"],
      ["File the application", "Send the letter we drafted"],
    ),
    review: { rating: 4, text: "Clear explanation of how trademarks work for podcasts. I feel much less anxious about it now." },
  },
  {
    expert: "ava",
    session: 0,
    creator: "hana",
    day: -12,
    hour: 15,
    lead: 4,
    prep: ["Grow the ceramics audience on Instagram.", "1,100 followers on the new account.", "Reels twice a week."],
    notes: notes(
      "We built a 90-day plan for Hana's new account, borrowing what works on her main channel.",
      ["Process videos are your strongest format", "Post at the same two times each week"],
      ["Film ten process reels in one session", "Collaborate with one potter a month"],
    ),
    review: { rating: 5, text: "Ava's 90-day plan is pinned above my desk. Focused and realistic." },
  },
  {
    expert: "jordan",
    session: 0,
    creator: "daniel",
    day: -11,
    hour: 13,
    lead: 6,
    prep: ["Launch a podcast to go with my channel.", "Have a mic and a topic, nothing else.", "Recorded one test episode."],
    notes: notes(
      "We planned Daniel's podcast as a companion to his channel: same audience, longer form.",
      ["Reuse your channel's best topics as episodes", "Publish weekly for the first eight weeks"],
      ["Record episodes one to three", "Set up the podcast feed"],
    ),
    review: { rating: 5, text: "Jordan made launching a podcast feel doable. Clear steps and no fluff." },
  },
  {
    expert: "marcus",
    session: 0,
    creator: "casey",
    day: -10,
    hour: 15,
    lead: 5,
    prep: [
      "Understand a brand offer before I reply.",
      "A skincare brand offered a three-post package.",
      "Compared it with my old rate card.",
    ],
    notes: notes(
      "We read the skincare offer line by line: the fee was fine, the usage rights were not.",
      ["Usage rights are priced separately", "Ask for the brief before agreeing to dates"],
      ["Counter with a usage-rights fee", "Ask for 50% up front"],
    ),
    review: { rating: 4, text: "Marcus spotted the usage-rights problem immediately. I countered and got a better deal." },
  },
  {
    expert: "priya",
    session: 0,
    creator: "maya",
    day: -7,
    hour: 16,
    lead: 2,
    prep: ["Make my podcast's YouTube thumbnails better.", "Using the same template for every episode.", "Nothing yet."],
    notes: notes(
      "We moved Maya's thumbnails from a fixed template to one strong image per episode.",
      ["Show the guest's face, big", "Three words at most"],
      ["Make thumbnails for the next four episodes", "Compare click-through after a month"],
    ),
    review: { rating: 4, text: "Helpful and quick. The three-word rule is simple but it works." },
  },
  {
    expert: "jordan",
    session: 1,
    creator: "hana",
    day: -6,
    hour: 17,
    lead: 3,
    prep: ["Feedback on my pilot episode.", "Recorded the pilot for a ceramics podcast.", "Asked two friends to listen."],
    notes: notes(
      "Hana's pilot is warm and well paced; the sound of the studio needed taming.",
      ["Record away from the kiln fan", "Your opening story is the hook"],
      ["Re-record the intro", "Try a lavalier mic in the studio"],
    ),
    review: { rating: 5, text: "Kind and specific feedback. My pilot sounds so much better now." },
  },
  {
    expert: "ava",
    session: 1,
    creator: "daniel",
    day: -4,
    hour: 13,
    lead: 3,
    prep: ["A quick look at my channel before a redesign.", "Planning a new banner and trailer.", "Drafted a trailer script."],
    notes: notes(
      "We checked Daniel's channel page and trailer script before the redesign.",
      ["The trailer should say who the channel is for in the first line"],
      ["Record the trailer", "Update the channel description"],
    ),
  },
  {
    expert: "sofia",
    session: 0,
    creator: "casey",
    day: -3,
    hour: 12,
    lead: 4,
    prep: [
      "Check a collaboration agreement with another creator.",
      "We want to co-host a series and split the revenue.",
      "Wrote a one-page agreement ourselves.",
    ],
    notes: notes(
      "Casey's co-hosting agreement was clear on money but silent on who owns the recordings if the collaboration ends.",
      ["Say who owns the recordings", "Add how either of you can end it", "Put the revenue split in percentages, not amounts"],
      ["Add the ownership clause we drafted", "Both sign and keep a copy"],
    ),
  },
];

/**
 * A confirmed booking the demo creator made earlier, for a session still to come, which she
 * cancels on the first start (more than a day ahead: everything paid is refunded).
 */
export const BOOKING_TO_CANCEL: PastBooking = {
  expert: "sofia",
  session: 0,
  creator: "casey",
  day: 6,
  hour: 11,
  lead: 11,
  prep: ["Review a licensing offer for one of my photos.", "A magazine wants to license a photo.", "Read their standard terms."],
};
export const CANCEL_REASON = "The magazine withdrew its offer, so I no longer need the review.";
