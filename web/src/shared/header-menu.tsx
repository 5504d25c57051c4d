import { Link as RouterLink } from "react-router-dom";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { HELP_URL, helpIsElsewhere } from "./flags.ts";
import type { HeaderLink } from "./layout.tsx";

/**
 * The header's links on a phone, behind the Menu button. A chunk of its own, fetched on the first
 * press: MUI's menu (popover, modal, focus trap, transitions) is a tenth of the landing page's script.
 */
export function HeaderMenu({ anchor, links, onClose }: { anchor: HTMLElement | null; links: HeaderLink[]; onClose: () => void }) {
  return (
    <Menu id="header-menu" anchorEl={anchor} open={!!anchor} onClose={onClose}>
      {links.map((l) =>
        "to" in l ? (
          <MenuItem key={l.label} component={RouterLink} to={l.to} onClick={onClose}>
            {l.label}
          </MenuItem>
        ) : (
          <MenuItem key={l.label} onClick={() => (onClose(), l.onClick())}>
            {l.label}
          </MenuItem>
        ),
      )}
      {helpIsElsewhere(HELP_URL) ? (
        <MenuItem component="a" href={HELP_URL} target="_blank" rel="noopener noreferrer" onClick={onClose}>
          Need help?
        </MenuItem>
      ) : (
        <MenuItem component={RouterLink} to={HELP_URL} onClick={onClose}>
          Need help?
        </MenuItem>
      )}
    </Menu>
  );
}
