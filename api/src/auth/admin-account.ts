import { findAccountByEmail, registerAccount, setPasswordHash, type AccountWriteDeps } from "./accounts.ts";
import { Email } from "./bodies.ts";
import { hashPassword, isWeakPassword, verifyPassword } from "./password.ts";
import { revokeUserSessions } from "./refresh-tokens.ts";

/**
 * The admin account from ADMIN_EMAIL / ADMIN_PASSWORD, at every start: created verified (with its
 * `UserRegistered` and `EmailVerified` events: whoever sets the environment speaks for the
 * address) the first time, its password updated when the variable changed, and left alone
 * otherwise. Several processes may start together: the loser of the creation race takes the
 * update path.
 */
export async function ensureAdminAccount(deps: AccountWriteDeps, email: string, password: string): Promise<void> {
  const address = Email.safeParse(email);
  if (!address.success) throw new Error("ADMIN_EMAIL is not a valid email address");
  if (isWeakPassword(password))
    throw new Error("ADMIN_PASSWORD is too weak: use 8 to 200 characters with at least one letter and one digit");

  for (let attempt = 1; attempt <= 2; attempt++) {
    const existing = await findAccountByEmail(deps.db, address.data);
    if (existing) {
      if (existing.role !== "admin") throw new Error(`ADMIN_EMAIL ${address.data} already belongs to a ${existing.role} account`);
      if (await verifyPassword(password, existing.passwordHash)) return;
      const now = deps.clock();
      await setPasswordHash(deps.db, existing.userId, await hashPassword(password), now);
      await revokeUserSessions(deps.db, existing.userId, now);
      return;
    }
    const created = await registerAccount(
      deps,
      {
        email: address.data,
        passwordHash: await hashPassword(password),
        role: "admin",
        firstName: "Admin",
        lastName: null,
        verified: true,
      },
      { actor: { userId: "system", role: "system" } },
    );
    if (created !== "email_taken") return;
  }
  throw new Error(`Could not create or update the admin account ${address.data}`);
}
