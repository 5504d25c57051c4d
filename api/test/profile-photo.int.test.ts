import { crc32 } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// An expert's photo is shown to every visitor: what the camera wrote into the file (where it was
// taken, the device, the editor's notes) must not go with it. Uploads come back re-encoded as
// JPEG, at most 1200 px on the long side, turned the way the camera meant, with no metadata.

let api: TestApi;
let expert: TestUser;
const V1 = "/api/v1";

beforeAll(async () => {
  api = await startTestApi();
  expert = await api.user("expert");
});
afterAll(async () => api.close());

/** Latitude 59° 19' 43.21" N, as the three rationals a camera writes: 43.21 is 4321/100, easy to find in bytes. */
const GPS_SECONDS = Buffer.from([0xe1, 0x10, 0x00, 0x00, 0x64, 0x00, 0x00, 0x00]);
const PLACE = "Stockholm";

/** A little-endian TIFF block as Exif carries it: IFD0 (orientation, when given, and the GPS pointer) and a GPS IFD with the latitude. */
function exifTiff(orientation?: number): Buffer {
  const entries: [number, number, number, number][] = [];
  if (orientation) entries.push([0x0112, 3, 1, orientation]);
  const ifd0Size = 2 + (entries.length + 1) * 12 + 4;
  const gpsAt = 8 + ifd0Size;
  const gpsSize = 2 + 2 * 12 + 4;
  const dataAt = gpsAt + gpsSize;
  entries.push([0x8825, 4, 1, gpsAt]);
  const tiff = Buffer.alloc(dataAt + 24);
  tiff.write("II", 0, "latin1");
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, count, value], i) => {
    const at = 10 + i * 12;
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    if (type === 3) tiff.writeUInt16LE(value, at + 8);
    else tiff.writeUInt32LE(value, at + 8);
  });
  tiff.writeUInt16LE(2, gpsAt);
  // GPSLatitudeRef "N", inline; GPSLatitude, three rationals at dataAt.
  tiff.writeUInt16LE(0x0001, gpsAt + 2);
  tiff.writeUInt16LE(2, gpsAt + 4);
  tiff.writeUInt32LE(2, gpsAt + 6);
  tiff.write("N\0", gpsAt + 10, "latin1");
  tiff.writeUInt16LE(0x0002, gpsAt + 14);
  tiff.writeUInt16LE(5, gpsAt + 16);
  tiff.writeUInt32LE(3, gpsAt + 18);
  tiff.writeUInt32LE(dataAt, gpsAt + 22);
  [59, 1, 19, 1, 4321, 100].forEach((n, i) => tiff.writeUInt32LE(n, dataAt + i * 4));
  return tiff;
}

const jpegSegment = (marker: number, payload: Buffer) => {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(marker, 0);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
};

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="59,19.72N" exif:GPSLongitude="18,4.08E"/></rdf:RDF></x:xmpmeta>`;

/** IPTC City in a Photoshop APP13 block. */
function iptcApp13(): Buffer {
  const record = Buffer.concat([Buffer.from([0x1c, 0x02, 0x5a, 0x00, PLACE.length]), Buffer.from(PLACE, "latin1")]);
  const resource = Buffer.concat([Buffer.from("8BIM", "latin1"), Buffer.from([0x04, 0x04, 0x00, 0x00]), Buffer.alloc(4), record]);
  resource.writeUInt32BE(record.length, 10);
  return Buffer.concat([Buffer.from("Photoshop 3.0\0", "latin1"), resource]);
}

/** `width` x `height`, left half red and right half blue. */
function halves(width: number, height: number) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) pixels.set(x < width / 2 ? [255, 0, 0] : [0, 0, 255], (y * width + x) * 3);
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

/** A phone photo: Exif with GPS and orientation 6 (turn 90° clockwise to show), XMP with GPS, IPTC with the city. */
async function phoneJpeg(width: number, height: number): Promise<Buffer> {
  const plain = await halves(width, height).jpeg({ quality: 95 }).toBuffer();
  return Buffer.concat([
    plain.subarray(0, 2),
    jpegSegment(0xffe1, Buffer.concat([Buffer.from("Exif\0\0", "latin1"), exifTiff(6)])),
    jpegSegment(0xffe1, Buffer.concat([Buffer.from("http://ns.adobe.com/xap/1.0/\0", "latin1"), Buffer.from(XMP)])),
    jpegSegment(0xffed, iptcApp13()),
    plain.subarray(2),
  ]);
}

const pngChunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

/** A PNG with a tEXt comment naming the place and an eXIf chunk with GPS, before the image data. */
async function taggedPng(width: number, height: number): Promise<Buffer> {
  const plain = await halves(width, height).png().toBuffer();
  const ihdrEnd = 8 + 4 + 4 + 13 + 4;
  return Buffer.concat([
    plain.subarray(0, ihdrEnd),
    pngChunk("tEXt", Buffer.from(`Comment\0Taken in ${PLACE}, 59.3287N 18.0680E`, "latin1")),
    pngChunk("eXIf", exifTiff()),
    plain.subarray(ihdrEnd),
  ]);
}

function multipart(bytes: Buffer, filename: string, type: string) {
  const boundary = "----profile-photo-test";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** Upload as the expert and fetch what visitors get. */
async function uploadAndFetch(bytes: Buffer, filename: string, type: string) {
  const upload = await api.call("POST", `${V1}/experts/me/image`, { user: expert, ...multipart(bytes, filename, type) });
  expect(upload.statusCode, upload.body).toBe(200);
  const served = await api.call("GET", upload.json().url);
  expect(served.statusCode).toBe(200);
  return served;
}

/** Nothing that says where, who or with what: no Exif, XMP, IPTC, ICC or text, and none of the telltale bytes either. */
async function expectNoMetadata(served: Buffer) {
  const meta = await sharp(served).metadata();
  expect(meta.format).toBe("jpeg");
  expect({
    exif: meta.exif,
    xmp: meta.xmp,
    iptc: meta.iptc,
    icc: meta.icc,
    orientation: meta.orientation,
    comments: meta.comments,
  }).toEqual({
    exif: undefined,
    xmp: undefined,
    iptc: undefined,
    icc: undefined,
    orientation: undefined,
    comments: undefined,
  });
  for (const telltale of [
    GPS_SECONDS,
    Buffer.from("Exif\0\0", "latin1"),
    Buffer.from("GPSLatitude"),
    Buffer.from(PLACE),
    Buffer.from("8BIM"),
    Buffer.from("ns.adobe.com"),
  ]) {
    expect(served.includes(telltale), `served image still holds ${JSON.stringify(telltale.toString("latin1"))}`).toBe(false);
  }
}

/** The colour at (x, y), as [r, g, b]. */
async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}
const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 60 && b! < 60;
const isBlue = ([r, g, b]: number[]) => r! < 60 && g! < 60 && b! > 200;

describe("profile photo metadata", () => {
  it("a phone JPEG with GPS in Exif, XMP and IPTC is served with none of it, turned as the camera meant", async () => {
    const photo = await phoneJpeg(80, 40);
    const before = await sharp(photo).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.includes(GPS_SECONDS)).toBe(true);
    expect(before.xmp).toBeDefined();
    expect(before.iptc).toBeDefined();

    const served = await uploadAndFetch(photo, "IMG_0042.jpg", "image/jpeg");
    expect(served.headers["content-type"]).toBe("image/jpeg");
    await expectNoMetadata(served.rawPayload);
    // Orientation 6: the stored 80 x 40 is shown 40 x 80, its left (red) half on top.
    const shown = await sharp(served.rawPayload).metadata();
    expect([shown.width, shown.height]).toEqual([40, 80]);
    expect(isRed(await pixel(served.rawPayload, 20, 10))).toBe(true);
    expect(isBlue(await pixel(served.rawPayload, 20, 70))).toBe(true);
  });

  it("a PNG with a tEXt comment and an eXIf chunk is served as a JPEG without them", async () => {
    const png = await taggedPng(60, 30);
    expect((await sharp(png).metadata()).comments?.some((c) => c.text.includes(PLACE))).toBe(true);
    const served = await uploadAndFetch(png, "avatar.png", "image/png");
    expect(served.headers["content-type"]).toBe("image/jpeg");
    await expectNoMetadata(served.rawPayload);
    expect(isRed(await pixel(served.rawPayload, 5, 15))).toBe(true);
  });

  it("a WebP carrying Exif with GPS and XMP is served as a JPEG without them", async () => {
    const webp = await sharp(await phoneJpeg(60, 30))
      .keepMetadata()
      .webp()
      .toBuffer();
    const before = await sharp(webp).metadata();
    expect(before.exif?.includes(GPS_SECONDS)).toBe(true);
    expect(before.xmp).toBeDefined();
    const served = await uploadAndFetch(webp, "avatar.webp", "image/webp");
    expect(served.headers["content-type"]).toBe("image/jpeg");
    await expectNoMetadata(served.rawPayload);
  });
});

describe("profile photo size", () => {
  it("is at most 1200 px on the long side, and a small photo is not blown up", async () => {
    const big = await uploadAndFetch(await halves(2400, 1600).png().toBuffer(), "wide.png", "image/png");
    const bigSize = await sharp(big.rawPayload).metadata();
    expect([bigSize.width, bigSize.height]).toEqual([1200, 800]);
    const small = await uploadAndFetch(await halves(300, 500).jpeg().toBuffer(), "small.jpg", "image/jpeg");
    const smallSize = await sharp(small.rawPayload).metadata();
    expect([smallSize.width, smallSize.height]).toEqual([300, 500]);
  });

  it("refuses a small file that says it holds 100 megapixels, as too large, before decoding it", async () => {
    const png = await halves(10, 10).png().toBuffer();
    const ihdr = Buffer.from(png.subarray(12, 29));
    ihdr.writeUInt32BE(10_000, 4);
    ihdr.writeUInt32BE(10_000, 8);
    const bomb = Buffer.concat([png.subarray(0, 8), pngChunk("IHDR", ihdr.subarray(4)), png.subarray(33)]);
    const r = await api.call("POST", `${V1}/experts/me/image`, { user: expert, ...multipart(bomb, "huge.png", "image/png") });
    expect(r.statusCode, r.body).toBe(413);
    expect(r.json()).toMatchObject({ code: "image_too_large" });
  });

  it("refuses a file that starts like an image but is not one, as not an image", async () => {
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const r = await api.call("POST", `${V1}/experts/me/image`, { user: expert, ...multipart(fake, "avatar.png", "image/png") });
    expect(r.statusCode, r.body).toBe(415);
    expect(r.json()).toMatchObject({ code: "image_invalid_type", message: "Invalid file type. Please upload an image." });
  });
});
