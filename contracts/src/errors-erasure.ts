// The error catalogue's entries for deleting one's account (issue 33.2), kept apart so errors.ts stays readable;
// errors.ts spreads them into the catalogue. A refusal says what to settle first: nothing is erased while something is
// still open between the person and someone else, or while the console would be left without an admin.

export const erasureErrors = {
  // 403, not 401: the caller's session is good (a client must keep it), the password they gave again is not.
  erasure_password_wrong: {
    status: 403,
    message: "That password is not right. Enter the password you sign in with to delete your account.",
  },
  erasure_open_bookings: {
    status: 409,
    message: "Your account cannot be deleted while you have {count} open {bookings}: {list}. Cancel or finish {them} first.",
  },
  erasure_money_owed: {
    status: 409,
    message: "Your account cannot be deleted while money is still owed to or by you: {list}. It can be deleted once that is settled.",
  },
  erasure_last_admin: {
    status: 409,
    message: "You are the only admin, and the console needs one. Another admin account must be set up before this one can be deleted.",
  },
} as const satisfies Record<string, { status: number; message: string }>;
