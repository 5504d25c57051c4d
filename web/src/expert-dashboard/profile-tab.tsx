import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { useNavigate } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import PhotoCameraIcon from "@mui/icons-material/PhotoCamera";
import { api, errorMessage } from "../shared/api-client.ts";
import type { ExpertProfile } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { LoadingScreen } from "../shared/guard.tsx";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { useMyProfile } from "./dashboard-queries.ts";
import {
  compressProfileImage,
  INVALID_IMAGE_MESSAGE,
  tagsFrom,
  validateProfile,
  type ProfileErrors,
  type ProfileForm,
} from "./profile-form.ts";

type ImageState = { kind: "stored"; url: string } | { kind: "new"; file: File; previewUrl: string } | { kind: "none" };

export function ProfileTab() {
  const profile = useMyProfile();
  if (profile.isPending) return <LoadingScreen />;
  if (profile.isError) return <Alert severity="error">There was an error loading your profile.</Alert>;
  return <ProfileEditor profile={profile.data} />;
}

export function ProfileEditor({ profile }: { profile: ExpertProfile }) {
  const queryClient = useQueryClient();
  const auth = useAuth();
  const navigate = useNavigate();
  // A first profile starts from the names given at sign-up.
  const [form, setForm] = useState<ProfileForm>({
    first_name: profile.first_name || (auth.user?.first_name ?? ""),
    last_name: profile.last_name || (auth.user?.last_name ?? ""),
    title: profile.title,
    bio: profile.bio ?? "",
    tags: profile.tags.join(", "),
  });
  const [image, setImage] = useState<ImageState>(profile.profile_image ? { kind: "stored", url: profile.profile_image } : { kind: "none" });
  const [storedImage, setStoredImage] = useState<string | null>(profile.profile_image);
  const [errors, setErrors] = useState<ProfileErrors>({});
  const [imageError, setImageError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useTimedNotice<string>();
  const [busy, setBusy] = useState(false);
  const [slug, setSlug] = useState(profile.slug);
  const [published, setPublished] = useState(profile.published);
  const [confirmUnpublish, setConfirmUnpublish] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => () => (image.kind === "new" ? URL.revokeObjectURL(image.previewUrl) : undefined), [image]);

  const set = (field: keyof ProfileForm) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const chooseImage = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    setImageError(null);
    if (!file.type.startsWith("image/")) {
      setImageError(INVALID_IMAGE_MESSAGE);
      return;
    }
    try {
      const compressed = await compressProfileImage(file);
      setImage({ kind: "new", file: compressed, previewUrl: URL.createObjectURL(compressed) });
    } catch (error) {
      setImageError(error instanceof Error ? error.message : "Image compression failed");
    }
  };

  /** Save keeps the profile listed or not as it is; only Publish and Unpublish change that. */
  const save = async (intent: "save" | "publish" | "unpublish") => {
    setConfirmUnpublish(false);
    const found = validateProfile(form);
    setErrors(found);
    setFailure(null);
    setSuccess(null);
    if (found.names || found.title) return;
    setBusy(true);
    try {
      let profileImage: string | null = image.kind === "stored" ? image.url : null;
      if (image.kind === "new") {
        const body = new FormData();
        body.append("file", image.file, "profile.jpg");
        try {
          profileImage = (await api.post<{ url: string }>("/experts/me/image", body)).url;
        } catch (error) {
          throw new Error(errorMessage(error, "Image upload failed."));
        }
      } else if (image.kind === "none" && storedImage) {
        try {
          await api.delete("/experts/me/image");
        } catch (error) {
          throw new Error(`Failed to delete existing image: ${errorMessage(error)}`);
        }
      }
      const saved = await api.patch<ExpertProfile>("/experts/me", {
        first_name: form.first_name.trim(),
        last_name: form.last_name.trim(),
        title: form.title.trim(),
        bio: form.bio.trim() || null,
        tags: tagsFrom(form.tags),
        profile_image: profileImage,
        ...(intent !== "save" && { published: intent === "publish" }),
      });
      queryClient.setQueryData(["expert-me"], saved);
      void queryClient.invalidateQueries({ queryKey: ["experts"] });
      void queryClient.invalidateQueries({ queryKey: ["expert"] });
      setSlug(saved.slug);
      setPublished(saved.published);
      setStoredImage(saved.profile_image);
      setImage(saved.profile_image ? { kind: "stored", url: saved.profile_image } : { kind: "none" });
      setSuccess(
        intent === "publish"
          ? "Your profile has been published!"
          : intent === "unpublish"
            ? "Your profile has been unpublished. Creators no longer see it."
            : "Your profile has been saved successfully!",
      );
      // The expert id (which unlocks sessions and the schedule) comes with the first save.
      if (!auth.user?.expert_id) await auth.reloadUser();
    } catch (error) {
      setFailure(error instanceof Error && error.message ? error.message : "There was an error saving your profile.");
    } finally {
      setBusy(false);
    }
  };

  const imageUrl = image.kind === "stored" ? image.url : image.kind === "new" ? image.previewUrl : null;

  return (
    <Box
      component="form"
      noValidate
      aria-label="Your profile"
      onSubmit={(e) => {
        e.preventDefault();
        void save("save");
      }}
      sx={{ display: "grid", gap: 2, maxWidth: 760 }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Typography>Status:</Typography>
        <Chip
          size="small"
          label={published ? "Published" : "Unpublished"}
          color={published ? "success" : "default"}
          sx={{ transition: "none", ...(published && { bgcolor: "success.dark", color: "common.white" }) }}
        />
      </Box>
      {failure && (
        <Alert severity="error" role="alert">
          <AlertTitle>There was an error with your submission</AlertTitle>
          {failure}
        </Alert>
      )}
      {success && (
        <Alert severity="success" role="status">
          {success}
        </Alert>
      )}
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
        <TextField
          label="First Name"
          value={form.first_name}
          onChange={set("first_name")}
          required
          error={!!errors.names}
          helperText={errors.names}
        />
        <TextField label="Last Name" value={form.last_name} onChange={set("last_name")} required error={!!errors.names} />
      </Box>
      <TextField
        label="Title"
        value={form.title}
        onChange={set("title")}
        required
        error={!!errors.title}
        helperText={errors.title}
        placeholder="e.g. Brand Partnerships Advisor"
      />
      <TextField
        label="About"
        value={form.bio}
        onChange={set("bio")}
        multiline
        minRows={5}
        helperText="Separate paragraphs with a blank line."
      />
      <TextField label="Tags" value={form.tags} onChange={set("tags")} helperText="Comma-separated; we suggest 2-4 keywords." />

      <Box component="fieldset" sx={{ border: 1, borderColor: "divider", borderRadius: 2, p: 2 }}>
        <Typography component="legend" sx={{ px: 1 }}>
          Profile Image
        </Typography>
        <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
          {imageUrl ? (
            <Box
              component="img"
              src={imageUrl}
              alt="Profile image preview"
              data-testid="profile-image-preview"
              sx={{ width: 96, height: 96, borderRadius: "50%", objectFit: "cover" }}
            />
          ) : (
            <Avatar sx={{ width: 96, height: 96 }} alt="No profile image" />
          )}
          <Button variant="outlined" startIcon={<PhotoCameraIcon />} onClick={() => fileInput.current?.click()}>
            {imageUrl ? "Change Image" : "Choose Image"}
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept="image/*"
            aria-label="Profile Image"
            onChange={chooseImage}
            style={{ position: "absolute", width: 1, height: 1, opacity: 0, pointerEvents: "none" }}
            tabIndex={-1}
          />
          {imageUrl && (
            <Button color="error" onClick={() => setImage({ kind: "none" })}>
              Remove
            </Button>
          )}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          PNG, JPG, or GIF. Max ~5MB. Images are resized to 1200 px and saved as JPEG.
        </Typography>
        {imageError && (
          <Typography role="alert" color="error" sx={{ mt: 1 }}>
            {imageError}
          </Typography>
        )}
      </Box>

      <Typography variant="body2" color="text.secondary">
        {published
          ? "Save Profile keeps your profile published; Unpublish Profile takes it off the listing."
          : "Save Profile keeps your profile unpublished until launch; Publish Profile makes it visible to creators."}
      </Typography>
      <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap" }}>
        <Button type="submit" variant="contained" disabled={busy}>
          Save Profile
        </Button>
        {published ? (
          <Button variant="outlined" color="error" disabled={busy} onClick={() => setConfirmUnpublish(true)}>
            Unpublish Profile
          </Button>
        ) : (
          <Button variant="outlined" disabled={busy} onClick={() => void save("publish")}>
            Publish Profile
          </Button>
        )}
        <Button variant="text" disabled={!slug} onClick={() => slug && navigate(`/expert-profile/${slug}?preview=true`)}>
          Preview
        </Button>
      </Box>
      {!slug && (
        <Typography variant="body2" color="text.secondary">
          Profile must be saved before preview is available.
        </Typography>
      )}
      <Dialog open={confirmUnpublish} onClose={() => setConfirmUnpublish(false)} aria-labelledby="unpublish-title">
        <DialogTitle id="unpublish-title">Unpublish your profile?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Creators will no longer find you in the listing or be able to book your sessions. Bookings you already have stay as they are.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmUnpublish(false)}>Keep Published</Button>
          <Button color="error" variant="contained" disabled={busy} onClick={() => void save("unpublish")}>
            Yes, Unpublish
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
