// What erasing an account does to the API's own tables (issue 33.2), table by table, beside what the export reads of
// them (export-sources.ts). The read models are rewritten by their projections from the UserErased event; the mail
// records by the mail area (forgetInMail); the sign-ins end through the auth area. Each statement is one of these, over
// :user (the user's id), :experts (their expert ids), :email (their address), :address_hash (what failed sign-ins are
// counted under), :erased_email, :first, :last and :text (contracts' erased markers).

export type ErasureStatement = { about: string; sql: string };

export const ERASURE_STATEMENTS: readonly ErasureStatement[] = [
  {
    about:
      "The account row stays (bookings and the books refer to its id), naming nobody: its address the erased marker, " +
      "which frees the address for a new account, and no password anything can match.",
    sql: `UPDATE accounts SET email = :erased_email, first_name = :first, last_name = :last, password_hash = 'erased' WHERE user_id = :user`,
  },
  { about: "Two-factor sign-in: the sealed secret.", sql: `DELETE FROM two_factor WHERE user_id = :user` },
  { about: "The recovery codes' hashes.", sql: `DELETE FROM recovery_codes WHERE user_id = :user` },
  { about: "Passkeys, with their names and devices.", sql: `DELETE FROM passkeys WHERE user_id = :user` },
  { about: "Passkey challenges handed out to them.", sql: `DELETE FROM passkey_challenges WHERE user_id = :user` },
  { about: "The browsers that signed in before.", sql: `DELETE FROM known_devices WHERE user_id = :user` },
  { about: "Failed sign-ins, counted under the address.", sql: `DELETE FROM login_failures WHERE address_hash = :address_hash` },
  { about: "Each sign-in's device (the browser and system it began on).", sql: `UPDATE sign_ins SET device = :text WHERE user_id = :user` },
  { about: "Their calendar feed's generation.", sql: `DELETE FROM calendar_feeds WHERE user_id = :user` },
  {
    about: "The expert's connected calendars (sealed addresses and passwords, labels) and their calendars' names.",
    sql: `DELETE FROM calendar_connections WHERE expert_id = ANY(:experts)`,
  },
  {
    about: "The test payout provider's account: its address.",
    sql: `UPDATE test_payout_accounts SET email = :erased_email WHERE expert_id = ANY(:experts)`,
  },
  {
    about: "An admin's reason for holding the expert's payouts (about them).",
    sql: `UPDATE payout_experts SET held_reason = :text WHERE expert_id = ANY(:experts) AND held_reason <> ''`,
  },
  {
    about: "The early access request made with the address, and the versions it replaced.",
    sql: `DELETE FROM early_access_requests WHERE email = lower(:email)`,
  },
];

/** The statement with each :name it uses numbered ($1, $2…) in order of first use, and the values to match. */
export function boundTo(sql: string, values: Readonly<Record<string, unknown>>): [string, unknown[]] {
  const names: string[] = [];
  const text = sql.replace(/(?<!:):([a-z_]+)\b/g, (whole, name: string) => {
    if (!Object.hasOwn(values, name)) throw new Error(`no value for :${name} in ${sql}`);
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return [text, names.map((name) => values[name])];
}
