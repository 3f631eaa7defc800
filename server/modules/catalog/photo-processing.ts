import crypto from "node:crypto";
import sharp, { type Metadata, type OutputInfo } from "sharp";
import { InvalidInputError, TooLargeError } from "../shared/errors.shared";
import type { PhotoLane } from "./photo-lane";
import {
  PHOTO_FIELD,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_PIXELS,
  PHOTO_PATH_PREFIX,
  photoFormatsText,
} from "./photo-values.shared";
import type { PhotoVariantType, ProductImage } from "../shared/product-images.shared";

/**
 * Product photos, processed once at upload (docs/decisions/2026-11-23-product-photos.md): the
 * type is read from the bytes (never the name or the declared type), the size and the pixels are
 * bounded, the EXIF orientation is applied, and the photo is re-encoded as WebP (and AVIF at the
 * widths where that is smaller) at several widths, never wider than the photo. Nothing of the original file is
 * kept: its metadata (GPS position, camera) goes with it.
 */

/** What an adapter hands over: the bytes it kept (at most PHOTO_MAX_BYTES) and whether there were more. */
export type PhotoUpload = { bytes: Uint8Array; truncated: boolean };

/** A form that carries photos: its text fields, to be validated by the operation, and its photos. */
export type FormWithPhotos = { fields: unknown; photos: PhotoUpload[] };

/**
 * Reads a form with photos from the request when called, and not before (server/http/photo-upload.ts):
 * an operation that takes uploads calls it once it has authorised the caller, so that nobody's
 * upload is read, checked or decoded for an order or a review that is not theirs
 * (docs/decisions/2026-11-29-uploads-authorised-first.md).
 */
export type ReadFormWithPhotos = () => Promise<FormWithPhotos>;

/**
 * Widths of the variants, chosen for this store's image slots: 160 for thumbnails (cart, orders,
 * admin tables), 320–480 for cards and the product page on phones, 720 for those at twice the
 * density and the product page on a desktop, 960–1440 for large and dense screens.
 */
export const PHOTO_WIDTHS = [160, 320, 480, 720, 960, 1440] as const;
const LARGEST_WIDTH = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1]!;
/** The placeholder inlined in pages: a few hundred bytes, blurred further by the browser. */
const PLACEHOLDER_WIDTH = 16;

const WEBP_OPTIONS = { quality: 72, effort: 4 } as const;
// AVIF effort 1: measured here within a few percent of effort 3 for photos, at a fifth of the
// time (effort 4 halves the largest file but takes half a minute on these two cores).
const AVIF_OPTIONS = { quality: 50, effort: 1 } as const;
/** An AVIF file is kept at a width where it is at most this share of the WebP's size. */
const AVIF_KEPT_BELOW = 0.95;

// Each photo is decoded once; sharp's operation cache would only hold memory.
sharp.cache(false);

type Format = "JPEG" | "PNG" | "WebP" | "AVIF" | "HEIC";

export type PreparedVariant = {
  file: string;
  width: number;
  height: number;
  type: PhotoVariantType;
  bytes: Buffer;
};

/** A photo ready to store: its id, its size as shown, its variants and its placeholder. */
export type PreparedPhoto = {
  id: string;
  width: number;
  height: number;
  variants: PreparedVariant[];
  placeholder: string;
};

/** A photo over 10 MB: a 413, said beside the photo field. */
export const photoTooLarge = () =>
  new TooLargeError([{ field: PHOTO_FIELD, message: `The photo must be at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB` }]);

const photoError = (message: string) => new InvalidInputError([{ field: PHOTO_FIELD, message }]);
const UNREADABLE = "The photo could not be read: the file is damaged or incomplete";

/** The formats this server reads: HEIC only if the installed sharp can decode it (a probe, once). */
export async function acceptedPhotoFormats(): Promise<Format[]> {
  return (await canDecodeHeic()) ? ["JPEG", "PNG", "WebP", "AVIF", "HEIC"] : ["JPEG", "PNG", "WebP", "AVIF"];
}

/**
 * The type of a file by its first bytes. HEIC and AVIF share the HEIF container; its brands
 * tell them apart (sharp's metadata then confirms the codec).
 */
export function sniffPhotoFormat(bytes: Uint8Array): Format | null {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString("latin1");
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "JPEG";
  if (bytes.length >= 8 && ascii(0, 8) === "\x89PNG\r\n\x1a\n") return "PNG";
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "WebP";
  if (bytes.length >= 16 && ascii(4, 8) === "ftyp") {
    const boxSize = Buffer.from(bytes.subarray(0, 4)).readUInt32BE(0);
    const end = Math.min(Math.max(boxSize, 16), bytes.length, 256);
    const brands = [ascii(8, 12)];
    for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(at, at + 4));
    if (brands.some((brand) => brand === "avif" || brand === "avis")) return "AVIF";
    if (brands.some((brand) => /^(hei[cxms]|hev[cxms]|mif1|msf1)$/.test(brand))) return "HEIC";
  }
  return null;
}

/**
 * Checks a photo without decoding its pixels: size, type and pixel count. Every problem is a
 * refusal with its message on the photo field; a photo over 10 MB is a 413.
 */
export async function inspectPhoto(upload: PhotoUpload): Promise<{ format: Format }> {
  if (upload.truncated || upload.bytes.length > PHOTO_MAX_BYTES) throw photoTooLarge();
  const formats = await acceptedPhotoFormats();
  const notAnImage = `The photo must be a ${photoFormatsText(formats)} image`;
  const format = sniffPhotoFormat(upload.bytes);
  if (!format) throw photoError(notAnImage);
  if (format === "HEIC" && !formats.includes("HEIC")) {
    throw photoError(`HEIC photos cannot be read here: please choose a ${photoFormatsText(formats)} image`);
  }
  let metadata: Metadata;
  try {
    metadata = await sharp(upload.bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw photoError(UNREADABLE);
  }
  if (!metadata.width || !metadata.height) {
    throw photoError(UNREADABLE);
  }
  const pixels = metadata.width * metadata.height;
  if (pixels > PHOTO_MAX_PIXELS) {
    throw photoError(
      `The photo must be at most ${PHOTO_MAX_PIXELS / 1_000_000} megapixels (this one has ${(pixels / 1_000_000).toFixed(1)})`,
    );
  }
  return { format };
}

/** An upload's pixels, oriented, with the options that let sharp read them again. */
type DecodedUpload = {
  data: Buffer;
  info: OutputInfo;
  raw: { raw: { width: number; height: number; channels: OutputInfo["channels"] } };
};

/**
 * The one decode of an upload that passed inspectPhoto, for photos and screenshots alike: EXIF
 * orientation applied, shrunk to the largest width while decoding where the format allows, and the
 * pixel bound enforced by sharp itself too. A file that fails to decode (truncated, corrupt) gets
 * the same refusal as one whose header cannot be read.
 */
async function decodeUpload(upload: PhotoUpload): Promise<DecodedUpload> {
  const { data, info } = await sharp(upload.bytes, { failOn: "error", limitInputPixels: PHOTO_MAX_PIXELS })
    .autoOrient()
    .resize({ width: LARGEST_WIDTH, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw photoError(UNREADABLE);
    });
  return { data, info, raw: { raw: { width: info.width, height: info.height, channels: info.channels } } };
}

/** One photo through the lane (preparePhotos). */
export async function preparePhoto(upload: PhotoUpload, lane: PhotoLane): Promise<PreparedPhoto> {
  const [prepared] = await preparePhotos([upload], lane);
  return prepared!;
}

/**
 * Checks every photo (inspectPhoto), then processes them one after another in one turn of the
 * lane (a review's photos are one upload: none is refused by a full lane after another was
 * processed). Refused with a BusyError when the lane's queue is full.
 */
export async function preparePhotos(uploads: PhotoUpload[], lane: PhotoLane): Promise<PreparedPhoto[]> {
  for (const upload of uploads) await inspectPhoto(upload);
  if (uploads.length === 0) return [];
  return lane.run(async () => {
    const prepared: PreparedPhoto[] = [];
    for (const upload of uploads) prepared.push(await processPhoto(upload));
    return prepared;
  });
}

/** Decodes the photo once (decodeUpload), then encodes every variant from those pixels. */
async function processPhoto(upload: PhotoUpload): Promise<PreparedPhoto> {
  const { data, info, raw } = await decodeUpload(upload);
  const id = crypto.randomUUID();
  const widths = variantWidths(info.width);
  const resized = (width: number) => sharp(data, raw).resize({ width });
  const encoded = await Promise.all(
    widths.map(async (width) => {
      const [webp, avif] = await Promise.all([
        resized(width).webp(WEBP_OPTIONS).toBuffer({ resolveWithObject: true }),
        resized(width).avif(AVIF_OPTIONS).toBuffer({ resolveWithObject: true }),
      ]);
      return { webp, avif };
    }),
  );
  // AVIF only where it saves at least a twentieth over WebP: a file that saves less is not worth keeping.
  const variants: PreparedVariant[] = [
    ...encoded.map(({ webp }) => variantOf(id, "image/webp", webp)),
    ...encoded
      .filter(({ webp, avif }) => avif.data.length <= webp.data.length * AVIF_KEPT_BELOW)
      .map(({ avif }) => variantOf(id, "image/avif", avif)),
  ];
  const placeholder = await sharp(data, raw)
    .resize({ width: PLACEHOLDER_WIDTH })
    .webp({ quality: 40, effort: 6 })
    .toBuffer();
  return {
    id,
    width: info.width,
    height: info.height,
    variants,
    placeholder: `data:image/webp;base64,${placeholder.toString("base64")}`,
  };
}

/** A private image ready to store: the image re-encoded at most LARGEST_WIDTH wide, and a thumbnail. */
export type PreparedScreenshot = { image: Buffer; width: number; height: number; thumbnail: Buffer };

/** Wide enough for the admin's order page to read the amount and reference on it. */
const SCREENSHOT_THUMBNAIL_WIDTH = 240;

/**
 * A customer's screenshot of a payment (docs/decisions/2026-11-26-advance-payment.md): the same
 * checks as a photo (inspectPhoto), decoded once and re-encoded as WebP, so that none of the
 * original file's metadata is kept; no variants or placeholder, since no public page shows it.
 */
export async function prepareScreenshot(upload: PhotoUpload, lane: PhotoLane): Promise<PreparedScreenshot> {
  await inspectPhoto(upload);
  return lane.run(async () => {
    const { data, info, raw } = await decodeUpload(upload);
    const [image, thumbnail] = await Promise.all([
      sharp(data, raw).webp(WEBP_OPTIONS).toBuffer(),
      sharp(data, raw)
        .resize({ width: SCREENSHOT_THUMBNAIL_WIDTH, withoutEnlargement: true })
        .webp(WEBP_OPTIONS)
        .toBuffer(),
    ]);
    return { image, width: info.width, height: info.height, thumbnail };
  });
}

/** The widths below the photo's (with a little room), and the photo's own up to the largest. */
export function variantWidths(photoWidth: number): number[] {
  const top = Math.min(photoWidth, LARGEST_WIDTH);
  return [...PHOTO_WIDTHS.filter((width) => width < top * 0.9), top];
}

/** The list products carry: WebP smallest first, then AVIF. */
export function imagesOf(variants: Pick<PreparedVariant, "file" | "width" | "height" | "type">[]): ProductImage[] {
  const order = (type: string) => (type === "image/webp" ? 0 : 1);
  return [...variants]
    .sort((a, b) => order(a.type) - order(b.type) || a.width - b.width)
    .map((variant) => ({
      url: `${PHOTO_PATH_PREFIX}${variant.file}`,
      width: variant.width,
      height: variant.height,
      type: variant.type as PhotoVariantType,
    }));
}

/** The image a product shows as `imageUrl`: the largest WebP, which every current browser reads. */
export function largestImageUrl(images: ProductImage[]): string {
  const webp = images.filter((image) => image.type === "image/webp");
  return webp.reduce((largest, image) => (image.width > largest.width ? image : largest), webp[0]!).url;
}

/**
 * A variant's file name: a hash of its bytes (salted with the photo's id, so that the same
 * photo uploaded twice still gives distinct files), its width and type. New bytes, new name:
 * the files can be cached for a year.
 */
function variantOf(photoId: string, type: PhotoVariantType, output: { data: Buffer; info: OutputInfo }) {
  const hash = crypto.createHash("sha256").update(photoId).update(output.data).digest("base64url").slice(0, 16);
  const extension = type === "image/avif" ? "avif" : "webp";
  return {
    file: `${hash}-${output.info.width}w.${extension}`,
    width: output.info.width,
    height: output.info.height,
    type,
    bytes: output.data,
  };
}

/** The name of a variant's file as its address has it; anything else is not a photo of the store. */
export const PHOTO_FILE_PATTERN = /^[A-Za-z0-9_-]{16}-\d{1,5}w\.(?:webp|avif)$/;

/**
 * A 64×48 HEIC (HEVC) image made with libheif's heif-enc, decoded once to learn whether this
 * sharp reads HEIC: its prebuilt libvips reads the HEIF container with AV1 (AVIF) but not HEVC.
 */
export const HEIC_SAMPLE = Buffer.from(
  "AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAa1tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAA5waXRtAAAAAAACAAAAEGlkYXQAAAAAAEAAMAAAADhpbG9jAQAAAERAAAIAAQAAAAAAAAHRAAEAAAAAAAAAHQACAAEAAAAAAAAAAQAAAAAAAAAIAAAAOGlpbmYAAAAAAAIAAAAVaW5mZQIAAAEAAQAAaHZjMQAAAAAVaW5mZQIAAAAAAgAAZ3JpZAAAAADYaXBycAAAALZpcGNvAAAAdmh2Y0MBA3AAAAAAAAAAAAAe8AD8/fj4AAAPAyAAAQAYQAEMAf//A3AAAAMAkAAAAwAAAwAeugJAIQABACpCAQEDcAAAAwCQAAADAAADAB6gIIEFlurkprm4EBAwIAAAAwAgAAADACEiAAEABkQBwXPAiQAAABRpc3BlAAAAAAAAAEAAAABAAAAAFGlzcGUAAAAAAAAAQAAAADAAAAAQcGl4aQAAAAADCAgIAAAAGmlwbWEAAAAAAAAAAgABAoECAAICA4QAAAAaaXJlZgAAAAAAAAAOZGltZwACAAEAAQAAACVtZGF0AAAAGSgBrxOA+BDhp3/wYo//p1zw9nx786KQz4A=",
  "base64",
);

let heicProbe: Promise<boolean> | null = null;
function canDecodeHeic(): Promise<boolean> {
  heicProbe ??= sharp(HEIC_SAMPLE)
    .raw()
    .toBuffer()
    .then(
      () => true,
      () => false,
    );
  return heicProbe;
}
