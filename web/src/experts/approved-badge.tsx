import { APPROVED_BADGE_MEANING } from "@booking/contracts";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import VerifiedIcon from "@mui/icons-material/Verified";

// The check mark means "approved by our team" (issue 30) and says so: hover it, focus it, or tap it.
// It is named "Verified"; the meaning is its description and its tooltip.

/** The listing card's check mark: above the card's stretched link, so it can be hovered and focused. */
export function ApprovedMark() {
  return (
    <Tooltip title={APPROVED_BADGE_MEANING} describeChild enterTouchDelay={0} arrow>
      <VerifiedIcon color="primary" fontSize="small" titleAccess="Verified" tabIndex={0} sx={{ position: "relative", zIndex: 1 }} />
    </Tooltip>
  );
}

/** The profile's Verified chip. */
export function ApprovedChip() {
  return (
    <Tooltip title={APPROVED_BADGE_MEANING} describeChild enterTouchDelay={0} arrow>
      <Chip icon={<VerifiedIcon />} label="Verified" color="primary" size="small" tabIndex={0} />
    </Tooltip>
  );
}
