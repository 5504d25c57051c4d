import imageCompression from "browser-image-compression";
import { IMAGE_MAX_BYTES, IMAGE_MAX_EDGE_PX } from "@booking/contracts";

export type ProfileForm = { first_name: string; last_name: string; title: string; bio: string; tags: string };
export type ProfileErrors = { names?: string; title?: string };

export function validateProfile(form: ProfileForm): ProfileErrors {
  const errors: ProfileErrors = {};
  if (!form.first_name.trim() || !form.last_name.trim()) errors.names = "First and Last name are required.";
  if (!form.title.trim()) errors.title = "Title is required.";
  return errors;
}

/** Tags are typed comma-separated; empties are dropped. */
export const tagsFrom = (text: string) =>
  text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);

export const INVALID_IMAGE_MESSAGE = "Invalid file type. Please upload an image.";

/** At most 5 MB and 1200 px on the long side, as JPEG, compressed in the browser. */
export async function compressProfileImage(file: File): Promise<File> {
  if (!file.type.startsWith("image/")) throw new Error(INVALID_IMAGE_MESSAGE);
  let compressed: Blob;
  try {
    compressed = await imageCompression(file, {
      maxSizeMB: IMAGE_MAX_BYTES / (1024 * 1024),
      maxWidthOrHeight: IMAGE_MAX_EDGE_PX,
      fileType: "image/jpeg",
      initialQuality: 0.85,
      // The worker would load the library from a CDN; compress on the page instead.
      useWebWorker: false,
    });
  } catch {
    throw new Error("Image compression failed");
  }
  return new File([compressed], "profile.jpg", { type: "image/jpeg" });
}
