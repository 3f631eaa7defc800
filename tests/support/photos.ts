import sharp from "sharp";

/**
 * Photos made for the tests and the bench, with sharp: nothing is downloaded, and each test says
 * what its photo is.
 */

/** A plain image of a size and format, small in bytes whatever its pixel count (one colour). */
export async function plainImage(
  width: number,
  height: number,
  format: "jpeg" | "png" | "webp" | "avif" = "png",
): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 192, g: 128, b: 64 } } });
  return image.toFormat(format).toBuffer();
}

/**
 * A phone's photo of a watch: 4000×3000 pixels (12 megapixels) stored sideways with EXIF
 * orientation 6 (shown 3000 wide and 4000 high, as a phone held upright takes it), the
 * camera's make and model and a GPS position in its EXIF, and the texture of a real photo
 * (grain and soft light over a drawn watch), so that it weighs what a phone's JPEG does (3–4 MB)
 * and its variants what a photo's do.
 */
export async function phonePhoto(
  options: { width?: number; height?: number; orientation?: 1 | 6; grain?: number; seed?: number } = {},
): Promise<Buffer> {
  const width = options.width ?? 4000;
  const height = options.height ?? 3000;
  const orientation = options.orientation ?? 6;
  const cx = width / 2;
  const cy = height / 2;
  const r = Math.min(width, height) / 3;
  // Drawn as the sensor sees it: the phone is held upright, so the scene lies on its side.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>
      <radialGradient id="bg" cx="40%" cy="35%" r="80%"><stop offset="0" stop-color="#d9cbb3"/><stop offset="1" stop-color="#5a4a3a"/></radialGradient>
      <radialGradient id="dial" cx="45%" cy="40%" r="60%"><stop offset="0" stop-color="#1d3557"/><stop offset="1" stop-color="#0b1320"/></radialGradient>
    </defs>
    <rect width="100%" height="100%" fill="url(#bg)"/>
    ${
      orientation === 6
        ? `<rect x="0" y="${cy - r / 2}" width="${width}" height="${r}" fill="#3b2a1e"/>`
        : `<rect x="${cx - r / 2}" y="0" width="${r}" height="${height}" fill="#3b2a1e"/>`
    }
    <circle cx="${cx}" cy="${cy}" r="${r}" fill="#c0c0c0"/>
    <circle cx="${cx}" cy="${cy}" r="${r * 0.9}" fill="url(#dial)"/>
    <g transform="rotate(${orientation === 6 ? -90 : 0} ${cx} ${cy})">
      <text x="${cx}" y="${cy - r * 0.35}" font-size="${r / 8}" text-anchor="middle" fill="#ddd" font-family="serif">WAQT</text>
      <rect x="${cx - r / 60}" y="${cy - r * 0.7}" width="${r / 30}" height="${r * 0.7}" fill="#f1f1f1"/>
      <rect x="${cx - r / 60}" y="${cy - r / 60}" width="${r * 0.5}" height="${r / 30}" fill="#f1f1f1"/>
    </g>
  </svg>`;
  const random = seededRandom(options.seed ?? 1);
  const noise = async (scale: number, sigma: number) => ({
    input: await sharp(gaussianGrain(Math.round(width / scale), Math.round(height / scale), sigma, random), {
      raw: { width: Math.round(width / scale), height: Math.round(height / scale), channels: 1 },
    })
      .resize(width, height, { kernel: "cubic" })
      .raw()
      .toBuffer(),
    raw: { width, height, channels: 1 as const },
    blend: "overlay" as const,
  });
  const layers = [await noise(40, 25), await noise(8, 12), await noise(1, options.grain ?? 10)];
  return sharp(Buffer.from(svg))
    .composite(layers)
    .jpeg({ quality: 92 })
    .withMetadata({ orientation })
    .withExif({
      IFD0: { Make: "Waqt Test Phone", Model: "X1" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "31/1 31/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "74/1 21/1 0/1" },
    })
    .toBuffer();
}

/**
 * The same seed gives the same photo, byte for byte: what a test measures of it (its variants'
 * sizes, which of AVIF and WebP is the smaller at each width, the page that lists them) is the
 * same on every run. (sharp's own noise is random, and a page-weight budget once failed on an
 * unlucky draw.)
 */
function seededRandom(seed: number): () => number {
  // mulberry32: small, fast and well spread; nothing here needs more.
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Grain without colour, as a sensor's looks once processed: grey around mid-grey with the given
 * spread (Box–Muller), one byte per pixel.
 */
function gaussianGrain(width: number, height: number, sigma: number, random: () => number): Buffer {
  const pixels = Buffer.alloc(width * height);
  for (let index = 0; index < pixels.length; index += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - random())) * sigma;
    const angle = 2 * Math.PI * random();
    pixels[index] = Math.max(0, Math.min(255, Math.round(128 + radius * Math.cos(angle))));
    if (index + 1 < pixels.length)
      pixels[index + 1] = Math.max(0, Math.min(255, Math.round(128 + radius * Math.sin(angle))));
  }
  return pixels;
}

/** A multipart form as a browser sends it: the fields, then the photo under `image` (when given). */
export function photoForm(
  fields: Record<string, string>,
  photo?: { bytes: Uint8Array; name?: string; type?: string },
  field = "image",
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (photo) {
    form.append(
      field,
      new Blob([new Uint8Array(photo.bytes)], { type: photo.type ?? "image/jpeg" }),
      photo.name ?? "photo.jpg",
    );
  }
  return form;
}
