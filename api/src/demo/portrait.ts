import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";

// Profile photos for the demo experts: a drawn head-and-shoulders outline on a two-colour
// gradient (no stock photo, nobody's face), uploaded through POST /experts/me/image like any
// expert's photo, so it is checked and re-encoded on the real path.

const SIZE = 480;

type Rgb = readonly [number, number, number];

/** A PNG portrait: a gradient from `top` to `bottom` with a lighter silhouette. */
export async function portraitPng(top: Rgb, bottom: Rgb): Promise<Buffer> {
  const pixels = Buffer.alloc(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++) {
    const f = y / (SIZE - 1);
    const background = top.map((c, i) => Math.round(c + (bottom[i]! - c) * f));
    for (let x = 0; x < SIZE; x++) {
      const head = (x - 240) ** 2 + (y - 190) ** 2 <= 88 ** 2;
      const shoulders = ((x - 240) / 175) ** 2 + ((y - 480) / 170) ** 2 <= 1;
      const at = (y * SIZE + x) * 3;
      for (let i = 0; i < 3; i++)
        pixels[at + i] = head || shoulders ? Math.round(background[i]! + (255 - background[i]!) * 0.55) : background[i]!;
    }
  }
  return sharp(pixels, { raw: { width: SIZE, height: SIZE, channels: 3 } })
    .png()
    .toBuffer();
}

/** Upload `png` as the signed-in expert's photo (multipart, as a browser sends it); resolves to the URL the profile names. */
export async function uploadPortrait(app: FastifyInstance, token: string, png: Buffer): Promise<string> {
  const boundary = `----demo-${randomBytes(8).toString("hex")}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="portrait.png"\r\nContent-Type: image/png\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), png, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const r = await app.inject({
    method: "POST",
    url: "/api/v1/experts/me/image",
    payload,
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
  });
  if (r.statusCode !== 200) throw new Error(`seed: POST /experts/me/image answered ${r.statusCode} ${r.body}`);
  return (r.json() as { url: string }).url;
}
