// What other areas use of conversations/: they import it from here, never from its files (eslint.config.js).

export { conversationRoutes, infoRequestedAsMessage } from "./routes.ts";
