import type { Page } from "playwright-core";

// Passkeys in a walk (issue 33.4): Chromium's virtual authenticator, through the DevTools protocol's
// WebAuthn domain, stands in for the device (a platform authenticator: Touch ID, Windows Hello) and
// answers navigator.credentials as a person touching it would. The steps are what a person does on
// the screens: add a passkey on the account page, sign in with it alone, or give it after the
// password. The product must be reached at a domain (startProduct's `host: "localhost"`): WebAuthn
// refuses an IP address as a passkey's site.

/** A credential the virtual authenticator keeps, as the protocol reports it. */
export type VirtualCredential = { credentialId: string; isResidentCredential: boolean; rpId: string; signCount: number };

export type VirtualAuthenticator = {
  /** The passkeys it keeps (a discoverable one per registration). */
  credentials: () => Promise<VirtualCredential[]>;
  /** Take the device away: its passkeys go with it. */
  remove: () => Promise<void>;
};

/**
 * A platform authenticator for `page`'s browser tab (it stays across navigations): CTAP2, built in,
 * keeping discoverable credentials, verifying the person (as a fingerprint would), present on every request.
 */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials as VirtualCredential[],
    remove: async () => {
      await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
      await cdp.detach();
    },
  };
}

/** On the account page (the creator's /account or the expert's Account tab): add a passkey made by the device, named `name`. */
export async function addPasskeyOnAccountPage(page: Page, name: string): Promise<void> {
  const form = page.getByRole("form", { name: "Add a passkey" });
  await form.getByLabel("Passkey name").fill(name);
  await form.getByRole("button", { name: "Add a Passkey" }).click();
  await page
    .getByRole("status")
    .filter({ hasText: `The passkey “${name}” is added` })
    .waitFor();
  await page.getByRole("list", { name: "Your passkeys" }).getByText(name, { exact: true }).waitFor();
}

/** The login page's "Sign in with a passkey": no address, no password; done once the page has left /login. */
export async function signInWithPasskey(page: Page, productUrl: string): Promise<void> {
  await page.goto(`${productUrl}/login`);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await page.waitForURL((url) => url.pathname !== "/login");
}

/** The password, then "Use a passkey" on the second step; done once the page has left /login. */
export async function signInWithPasswordAndPasskey(page: Page, productUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${productUrl}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await page.waitForURL((url) => url.pathname !== "/login");
}
