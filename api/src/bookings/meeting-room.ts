import { randomBytes } from "node:crypto";

/**
 * A new meeting room's name (issue 27.13): 128 random bits, base64url, so nobody can guess a room
 * (open services such as Jitsi Meet let anyone in who knows its name). Drawn here, at the edge, and
 * sent with the command that may confirm a booking; the confirmation records it.
 */
export const newMeetingRoom = (): string => randomBytes(16).toString("base64url");
