import sharp from "sharp";
import { IMAGE_MAX_EDGE_PX } from "@booking/contracts";

/**
 * Pixels a profile photo may decode to: a 50-megapixel phone photo fits, a small file that
 * inflates to gigabytes of pixels does not.
 */
const MAX_INPUT_PIXELS = 64_000_000;

/** What every visitor is sent: a JPEG, the way the spec stores profile images. */
export const PROFILE_PHOTO_TYPE = "image/jpeg";

export type PublishedPhoto = { kind: "photo"; bytes: Buffer } | { kind: "not_an_image" } | { kind: "too_many_pixels" };

/**
 * The photo as visitors get it: decoded and drawn again, so nothing the camera or an editor wrote
 * into the file (Exif with GPS, XMP, IPTC, PNG text chunks, ICC profiles, comments) comes along.
 * Turned upright by its Exif orientation first, since that is metadata too; at most 1200 px on the
 * long side; transparency on white (JPEG has none); the first frame of an animation.
 */
export async function publishedPhoto(upload: Buffer): Promise<PublishedPhoto> {
  try {
    const bytes = await sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
      .rotate()
      .resize({ width: IMAGE_MAX_EDGE_PX, height: IMAGE_MAX_EDGE_PX, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
    return { kind: "photo", bytes };
  } catch (e) {
    // libvips says why in words only: the pixel limit is the one refusal that is not "not an image".
    return /pixel limit/i.test(e instanceof Error ? e.message : "") ? { kind: "too_many_pixels" } : { kind: "not_an_image" };
  }
}
