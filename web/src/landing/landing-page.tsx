import { useState, type ReactNode } from "react";
import { Link as RouterLink } from "react-router-dom";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Container from "@mui/material/Container";
import Typography from "@mui/material/Typography";
import VerifiedIcon from "@mui/icons-material/Verified";
import Link from "@mui/material/Link";
import { useDocumentTitle } from "../shared/document-title.ts";
import { Page } from "../shared/layout.tsx";
import { initials } from "../experts/initials.ts";
import { BENEFITS, CREATOR_CHALLENGES, FAQ } from "./landing-content.ts";
import { useFeaturedExperts, type FeaturedExpert } from "./featured-experts.ts";

/**
 * A tag drawn like MUI's small Chip: the landing page's only chips are labels, and Chip (ripple,
 * delete icon, avatar, clicks) would cost the first page about 3.5 KB gzip (issue 19).
 */
function Tag({ label, icon, filled = false }: { label: string; icon?: ReactNode; filled?: boolean }) {
  return (
    <Box
      component="span"
      data-testid="expert-tag"
      sx={{
        display: "inline-flex",
        alignItems: "center",
        gap: 0.5,
        height: 24,
        px: 1,
        borderRadius: 4,
        fontSize: "0.8125rem",
        whiteSpace: "nowrap",
        ...(filled
          ? { bgcolor: "primary.main", color: "primary.contrastText" }
          : { border: 1, borderColor: "#bdbdbd", color: "text.primary" }),
        "& svg": { fontSize: 18 },
      }}
    >
      {icon}
      {label}
    </Box>
  );
}

/**
 * The calls to action lead into the open marketplace, in the same tab (issue 27.1; the spec's
 * pre-launch site sent every one to the early-access form in a new tab).
 */
function CallToAction({ label, to }: { label: string; to: string }) {
  return (
    <Box sx={{ textAlign: "center", my: 5 }}>
      <Button variant="contained" size="large" component={RouterLink} to={to} sx={{ px: 5, py: 1.5, fontSize: 18, borderRadius: 8 }}>
        {label}
      </Button>
    </Box>
  );
}

function ExpertCardFace({ expert }: { expert: FeaturedExpert }) {
  return (
    <Card elevation={6} sx={{ borderRadius: 4, position: "relative" }}>
      <Box
        aria-hidden="true"
        sx={{
          aspectRatio: "280 / 150",
          overflow: "hidden",
          position: "relative",
          background: `linear-gradient(135deg, ${expert.colors[0]}, ${expert.colors[1]})`,
          display: "grid",
          placeItems: "center",
          color: "#fff",
          fontSize: 48,
          fontWeight: 800,
        }}
      >
        {expert.image ? (
          <Box
            component="img"
            src={expert.image}
            alt=""
            sx={{ position: "absolute", inset: 0, width: "100%", height: "100%", objectFit: "cover" }}
          />
        ) : (
          initials(expert.name)
        )}
      </Box>
      <CardContent>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          <Typography component="h3" variant="h6">
            {expert.slug ? (
              // The whole card is the link to the expert's profile (stretched over it).
              <Link
                component={RouterLink}
                to={`/expert-profile/${expert.slug}`}
                underline="hover"
                color="inherit"
                sx={{ "&::after": { content: '""', position: "absolute", inset: 0 } }}
              >
                {expert.name}
              </Link>
            ) : (
              expert.name
            )}
          </Typography>
          {expert.verified && <Tag icon={<VerifiedIcon />} label="Verified" filled />}
        </Box>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {expert.title}
        </Typography>
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
          {expert.tags.map((t) => (
            <Tag key={t} label={t} />
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

/** Three published, verified experts of the marketplace; the sample cards only while fewer than three exist (issue 27.2). */
function FeaturedExperts() {
  const { experts, settled } = useFeaturedExperts();
  return (
    <Box
      component="ul"
      aria-label="Featured experts"
      aria-busy={!settled}
      sx={{
        listStyle: "none",
        p: 0,
        m: 0,
        display: "flex",
        flexDirection: { xs: "column", md: "row" },
        alignItems: "center",
        justifyContent: "center",
        // Fanned, but apart: overlapping cards hid the right card's name and tags under the middle one.
        gap: { xs: 2, md: 3 },
        py: { md: 4 },
        // Until the listing answers, the cards keep their place unseen, so the real ones do not jump in over sample names.
        visibility: settled ? "visible" : "hidden",
      }}
    >
      {experts.map((e, i) => (
        <Box
          component="li"
          key={e.key}
          data-testid="featured-expert"
          sx={{
            width: { xs: "100%", sm: 320, md: 240, lg: 280 },
            zIndex: i === 1 ? 2 : 1,
            transform: { xs: "none", md: `rotate(${(i - 1) * 7}deg) translateY(${i === 1 ? -12 : 12}px)` },
            transition: "transform 300ms",
            "&:hover": { transform: { md: "rotate(0deg) translateY(-16px)" }, zIndex: 3 },
          }}
        >
          <ExpertCardFace expert={e} />
        </Box>
      ))}
    </Box>
  );
}

function ChallengeCloud() {
  const rows = [CREATOR_CHALLENGES.slice(0, 11), CREATOR_CHALLENGES.slice(11, 22), CREATOR_CHALLENGES.slice(22)];
  return (
    <Box component="section" aria-labelledby="challenges-heading" sx={{ py: 5, bgcolor: "#f3effa", overflow: "hidden" }}>
      <Typography id="challenges-heading" variant="h4" component="h2" align="center" sx={{ mb: 3, px: 2 }}>
        Whatever you are working on
      </Typography>
      {/* The full list for assistive technology; the moving rows are decoration. */}
      <ul className="visually-hidden">
        {CREATOR_CHALLENGES.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <Box aria-hidden="true" sx={{ display: "grid", gap: 1.5 }}>
        {rows.map((row, i) => (
          <Box
            key={i}
            sx={{
              display: "flex",
              width: "max-content",
              gap: 1.5,
              animation: `challenge-scroll ${40 + i * 8}s linear infinite`,
              animationDirection: i % 2 ? "reverse" : "normal",
              "@media (prefers-reduced-motion: reduce)": { animation: "none", flexWrap: "wrap", width: "auto", justifyContent: "center" },
            }}
          >
            {[...row, ...row].map((c, j) => (
              <Box
                key={`${c}-${j}`}
                data-testid={j < row.length ? "challenge" : undefined}
                sx={{
                  px: 2,
                  py: 1,
                  borderRadius: 6,
                  bgcolor: "#fff",
                  border: 1,
                  borderColor: "#d1c4e9",
                  whiteSpace: "nowrap",
                  fontWeight: 600,
                  color: "#311b92",
                }}
              >
                {c}
              </Box>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

function Faq() {
  const [open, setOpen] = useState<number | null>(0);
  return (
    <Box component="section" aria-labelledby="faq-heading" sx={{ maxWidth: 820, mx: "auto" }}>
      <Typography id="faq-heading" variant="h4" component="h2" align="center" sx={{ mb: 3 }}>
        Frequently asked questions
      </Typography>
      {FAQ.map((item, i) => {
        const expanded = open === i;
        return (
          <Box key={item.q} sx={{ borderBottom: 1, borderColor: "divider" }} data-testid="faq-item">
            <Typography component="h3" sx={{ m: 0 }}>
              <Box
                component="button"
                type="button"
                id={`faq-q-${i}`}
                aria-expanded={expanded}
                aria-controls={`faq-a-${i}`}
                onClick={() => setOpen(expanded ? null : i)}
                sx={{
                  all: "unset",
                  boxSizing: "border-box",
                  cursor: "pointer",
                  width: "100%",
                  display: "flex",
                  justifyContent: "space-between",
                  gap: 2,
                  py: 2,
                  px: 1,
                  fontWeight: 700,
                  fontSize: 18,
                  "&:focus-visible": { outline: "3px solid #ff9800" },
                }}
              >
                {item.q}
                <Box component="span" aria-hidden="true" sx={{ fontSize: 24, lineHeight: 1, color: "primary.main" }}>
                  {expanded ? "−" : "+"}
                </Box>
              </Box>
            </Typography>
            <Box
              id={`faq-a-${i}`}
              role="region"
              aria-labelledby={`faq-q-${i}`}
              sx={{
                overflow: "hidden",
                maxHeight: expanded ? "24rem" : 0,
                visibility: expanded ? "visible" : "hidden",
                transition: `max-height 300ms ease, visibility 0s linear ${expanded ? "0s" : "300ms"}`,
                px: 1,
              }}
            >
              <Typography sx={{ pb: 2 }}>{item.a}</Typography>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

export function LandingPage() {
  useDocumentTitle(null);
  return (
    <Page wide>
      <Box
        component="section"
        aria-labelledby="hero-heading"
        sx={{ background: "linear-gradient(180deg, #ede7f6 0%, #fafafc 100%)", pt: { xs: 5, md: 8 }, pb: 4 }}
      >
        <Container sx={{ textAlign: "center" }}>
          <Typography
            id="hero-heading"
            variant="h2"
            component="h1"
            sx={{ fontWeight: 800, fontSize: { xs: 34, sm: 48, md: 60 }, maxWidth: 900, mx: "auto" }}
          >
            We make it easy for creators to reach the right experts, on demand
          </Typography>
          <Typography sx={{ fontSize: { xs: 18, md: 22 }, maxWidth: 760, mx: "auto", mt: 2, mb: 4 }}>
            Reach more fans, unlock new revenue streams, land brand deals and streamline your business with one-to-one sessions from vetted
            professionals.
          </Typography>
          <FeaturedExperts />
          <CallToAction label="Explore our network" to="/experts" />
        </Container>
      </Box>
      <ChallengeCloud />
      <Container component="section" aria-labelledby="network-heading" sx={{ py: 6 }}>
        <Typography id="network-heading" variant="h4" component="h2" align="center" sx={{ mb: 1 }}>
          A network of trusted professionals
        </Typography>
        <Typography align="center" sx={{ mb: 4, maxWidth: 700, mx: "auto" }}>
          Vetted experts who know the creator economy, matched to what you need next.
        </Typography>
        <Box
          component="ul"
          sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", md: "repeat(3, 1fr)" } }}
        >
          {BENEFITS.map((b, i) => (
            <Card component="li" key={b.title} variant="outlined" sx={{ borderRadius: 4 }} data-testid="benefit">
              <CardContent>
                <Typography aria-hidden="true" sx={{ fontSize: 32, fontWeight: 800, color: "primary.main" }}>
                  {i + 1}
                </Typography>
                <Typography component="h3" variant="h6" gutterBottom>
                  {b.title}
                </Typography>
                <Typography>{b.text}</Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
        <CallToAction label="Find your perfect match" to="/experts" />
        <Faq />
        <CallToAction label="Get expert support quickly" to="/signup?role=creator" />
        <Typography align="center" color="text.secondary">
          Not ready to book yet?{" "}
          <Link component={RouterLink} to="/early-access">
            Ask for an invitation to try it first
          </Link>
        </Typography>
      </Container>
    </Page>
  );
}
