import { Link as RouterLink, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardActions from "@mui/material/CardActions";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import ShareIcon from "@mui/icons-material/Share";
import { loginToBook } from "../auth/destination.ts";
import type { Session } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { useCopyLink } from "../shared/timed-notices.ts";
import { ApprovedChip } from "./approved-badge.tsx";
import { initials } from "./expert-card.tsx";
import { expertDetailQuery } from "./expert-queries.ts";
import { ReviewsBlock } from "./reviews-block.tsx";

/** Bio paragraphs are separated by blank lines. */
export const bioParagraphs = (bio: string | null) =>
  (bio ?? "")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

function BookButton({ session, preview }: { session: Session; preview: boolean }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const user = auth.status === "authenticated" ? auth.user : null;
  if (preview || user?.role === "creator") {
    return (
      <Button
        variant="contained"
        fullWidth
        onClick={() => navigate(`/book-session/${session.id}${preview ? "?preview=true" : ""}`)}
        aria-label={`Book Session: ${session.title}`}
      >
        Book Session
      </Button>
    );
  }
  if (!user) {
    return (
      <Button component={RouterLink} to={loginToBook(session.id)} fullWidth variant="outlined">
        Login as a creator to book
      </Button>
    );
  }
  return (
    <Box component="span" title="Only creators can book sessions" sx={{ width: "100%" }}>
      <Button variant="contained" fullWidth disabled aria-label={`Book Session: ${session.title} (only creators can book sessions)`}>
        Book Session
      </Button>
    </Box>
  );
}

function SessionCard({ session, preview }: { session: Session; preview: boolean }) {
  return (
    <Card component="article" variant="outlined" sx={{ display: "flex", flexDirection: "column" }}>
      <CardContent sx={{ flexGrow: 1 }}>
        <Typography component="h3" variant="h6">
          {session.title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {session.length_minutes} mins session
        </Typography>
        <Typography
          sx={{ height: 96, overflow: "hidden", display: "-webkit-box", WebkitLineClamp: 4, WebkitBoxOrient: "vertical" }}
          title={session.description}
        >
          {session.description}
        </Typography>
        <Typography sx={{ fontWeight: 800, fontSize: 22, mt: 1 }}>${Math.round(session.price)}</Typography>
      </CardContent>
      <CardActions sx={{ p: 2, pt: 0 }}>
        <BookButton session={session} preview={preview} />
      </CardActions>
    </Card>
  );
}

export function ExpertProfilePage() {
  const { slug = "" } = useParams();
  const [search] = useSearchParams();
  const preview = search.get("preview") === "true";
  const expert = useQuery(expertDetailQuery(slug));
  const { user } = useAuth();
  const { copied, copy } = useCopyLink();
  const phone = useMediaQuery("(max-width:599px)");
  const name = expert.data ? `${expert.data.first_name} ${expert.data.last_name}` : null;
  useDocumentTitle(name ? `Expert Profile: ${name}` : "Expert Profile");

  if (expert.isPending)
    return (
      <Page>
        <LoadingScreen label="Loading Profile" />
      </Page>
    );
  if (expert.isError || !expert.data) {
    return (
      <Page>
        <Typography variant="h4" component="h1">
          Profile Not Found
        </Typography>
      </Page>
    );
  }
  const e = expert.data;
  const shareUrl = `${window.location.origin}/expert-profile/${e.slug}`;
  // An expert looking at their own profile before our team approved them (issue 30): creators do not see it yet.
  const ownAwaitingApproval = user?.role === "expert" && (user.expert_id === e.id || user.id === e.user_id) && !e.verified;
  return (
    <Page>
      {ownAwaitingApproval ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          This is how creators will see your profile once our team approves you.
          {!e.published && " Publish it from your dashboard's Profile tab too."}{" "}
          <Link component={RouterLink} to={`/expert-dashboard/${user.id}/application`}>
            See your application
          </Link>
        </Alert>
      ) : (
        preview && (
          <Alert severity="info" sx={{ mb: 2 }}>
            Preview: this is how creators will see your profile{e.published ? "." : " once it is published."}
          </Alert>
        )
      )}
      <Paper
        component="section"
        aria-labelledby="expert-name"
        variant="outlined"
        sx={{ p: { xs: 2, sm: 4 }, display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", md: "240px 1fr" } }}
      >
        <Box sx={{ display: "grid", placeItems: "center" }}>
          {e.profile_image ? (
            <Box
              component="img"
              src={e.profile_image}
              alt={`Photo of ${name}`}
              sx={{ width: 220, height: 220, borderRadius: "50%", objectFit: "cover" }}
            />
          ) : (
            <Avatar sx={{ width: 180, height: 180, fontSize: 56, bgcolor: "primary.main" }} aria-hidden="true">
              {initials(name ?? "")}
            </Avatar>
          )}
        </Box>
        <Box>
          <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", gap: 1 }}>
            <Typography id="expert-name" variant="h4" component="h1">
              {name}
            </Typography>
            {e.verified && <ApprovedChip />}
            <Box sx={{ flexGrow: 1 }} />
            <Button startIcon={<ShareIcon />} variant="outlined" onClick={() => copy(shareUrl)} aria-live="polite">
              {copied ? "Copied" : phone ? "Share Profile" : "Share"}
            </Button>
          </Box>
          <Typography variant="h6" component="p" color="text.secondary" sx={{ mb: 2 }}>
            {e.title}
          </Typography>
          {bioParagraphs(e.bio).map((p) => (
            <Typography key={p} sx={{ mb: 1.5 }}>
              {p}
            </Typography>
          ))}
          <Box component="ul" aria-label="Expertise" sx={{ display: "flex", flexWrap: "wrap", gap: 1, p: 0, m: 0, listStyle: "none" }}>
            {e.tags.map((t) => (
              <li key={t}>
                <Chip label={t} variant="outlined" />
              </li>
            ))}
          </Box>
        </Box>
      </Paper>

      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 2 }}>
        Sessions
      </Typography>
      {e.sessions.length === 0 ? (
        <Typography>No sessions are available yet.</Typography>
      ) : (
        <Box sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", sm: "repeat(2, 1fr)", lg: "repeat(3, 1fr)" } }}>
          {e.sessions.map((s) => (
            <SessionCard key={s.id} session={s} preview={preview} />
          ))}
        </Box>
      )}

      <ReviewsBlock reviews={e.reviews} expertName={e.first_name} next={e.reviewsNext} />
      <Typography sx={{ mt: 4 }}>
        <Link component={RouterLink} to="/search">
          Back to all experts
        </Link>
      </Typography>
    </Page>
  );
}
