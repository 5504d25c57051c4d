// What other areas use of main/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { commandHandlers } from "./commands.ts";
export type {
  CalendarCommands,
  Commands,
  ConversationCommands,
  ExpertCommands,
  PayoutCommands,
  ReviewCommands,
  SessionCommands,
  TermsCommands,
} from "./commands.ts";
export { apiConfig, storeConfig } from "./config.ts";
