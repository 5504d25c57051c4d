import type { ReactNode } from "react";
import { AppBar, Layout, TitlePortal, UserMenu, useGetIdentity } from "react-admin";

/**
 * The account menu button shows the admin's name: its accessible name starts with that name, so
 * speech control ("click Ada Admin") finds it (react-admin names it "Profile").
 */
function AccountMenu() {
  const { identity } = useGetIdentity();
  return <UserMenu label={identity?.fullName ? `${identity.fullName}, account menu` : "Account menu"} />;
}

/** The page's title is its one h1 (react-admin writes it into a span), every screen naming itself. */
function ConsoleAppBar() {
  return (
    <AppBar userMenu={<AccountMenu />}>
      <TitlePortal component="h1" />
    </AppBar>
  );
}

export function ConsoleLayout({ children }: { children: ReactNode }) {
  return <Layout appBar={ConsoleAppBar}>{children}</Layout>;
}
