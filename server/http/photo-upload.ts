import { Readable } from "node:stream";
import busboy from "busboy";
import { photoTooLarge, type PhotoUpload } from "../modules/catalog/photo-processing";
import { PHOTO_FIELD, PHOTO_MAX_BYTES } from "../modules/catalog/photo-values.shared";
import { REVIEW_PHOTOS_MAX } from "../modules/reviews/review-values.shared";
import { DomainError, UnsupportedMediaTypeError } from "../modules/shared/errors.shared";
import { PAGE_BODY_LIMIT_BYTES, PHOTO_FORM_MAX_BYTES } from "./page-form-posts";

/**
 * Reading a form that carries photos (multipart/form-data): the product form's pages and
 * POST /api/v1/products/{id}/image, the review form and POST /api/v1/products/{id}/reviews, the
 * order page's payment reference with its screenshot and POST /api/v1/orders/{id}/payment-reference,
 * and no other route (SECURITY.md, "Forms and input").
 *
 * At most PHOTO_MAX_BYTES of the photo are kept, in memory; the rest of a larger file is read
 * and dropped, so that the form's other fields still arrive and the answer can say "too large"
 * beside the photo, keeping what the admin typed. A body longer than PHOTO_REQUEST_MAX_BYTES is
 * refused unread (page-form-posts.ts for the pages, the API router for the API).
 */
export const PHOTO_REQUEST_MAX_BYTES = PHOTO_FORM_MAX_BYTES;

/** Files read from one form: a review's REVIEW_PHOTOS_MAX and one more, to be refused as too many. */
const PHOTO_FILES_MAX = REVIEW_PHOTOS_MAX + 1;

export type PhotoForm = {
  /** The text fields, as plain strings (the last value of a repeated name wins, as formValues does). */
  fields: Record<string, string>;
  /** The file sent as `image` (or the field the caller named); null when none was chosen. */
  photo: PhotoUpload | null;
  /**
   * Every file sent as `image` (or the field the caller named), in order (a review takes several: review-photos.ts), at most one
   * more than any form takes, so that one too many is seen and refused rather than dropped.
   */
  photos: PhotoUpload[];
};

export class UnreadableFormError extends DomainError {
  constructor() {
    super("The form could not be read: please send it again");
  }
}

/** A page's form, multipart with a photo or urlencoded without one (the action calls this after its guard). */
export async function readPhotoFormRequest(request: Request, fileField: string = PHOTO_FIELD): Promise<PhotoForm> {
  const contentType = request.headers.get("content-type") ?? "";
  if (/^multipart\/form-data\b/i.test(contentType)) {
    if (!request.body) return { fields: {}, photo: null, photos: [] };
    return readMultipartPhotoForm(
      Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>),
      contentType,
      fileField,
    );
  }
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
    const fields: Record<string, string> = {};
    try {
      for (const [key, value] of await request.formData()) if (typeof value === "string") fields[key] = value;
    } catch {
      throw new UnreadableFormError();
    }
    return { fields, photo: null, photos: [] };
  }
  throw new UnsupportedMediaTypeError("Send the form as multipart/form-data");
}

/**
 * Parses multipart/form-data with busboy, within limits: up to PHOTO_FILES_MAX photos of at most
 * PHOTO_MAX_BYTES each kept (more of one is read and dropped, and marked), fields as small as the
 * pages' forms, the whole body at most PHOTO_REQUEST_MAX_BYTES. Files under any other name than
 * `fileField` are read and dropped. A malformed body is an UnreadableFormError (400), never a server error.
 */
export function readMultipartPhotoForm(
  body: Readable,
  contentType: string,
  fileField: string = PHOTO_FIELD,
): Promise<PhotoForm> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: {
        fileSize: PHOTO_MAX_BYTES,
        files: PHOTO_FILES_MAX,
        fields: 100,
        fieldSize: PAGE_BODY_LIMIT_BYTES,
        parts: 110,
        headerPairs: 20,
      },
    });
  } catch {
    // No boundary, or not multipart after all.
    throw new UnreadableFormError();
  }
  const fields: Record<string, string> = {};
  // By the order the files came in: each one's bytes arrive before the next file starts.
  const photos: PhotoUpload[] = [];
  parser.on("field", (name, value) => {
    fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    if (name !== fileField) {
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let truncated = false;
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("limit", () => {
      truncated = true;
    });
    stream.on("end", () => {
      const bytes = Buffer.concat(chunks);
      // A file input left empty still sends its part, with no name and no bytes.
      if (bytes.length === 0 && !info.filename && !truncated) return;
      photos.push({ bytes, truncated });
    });
  });
  // Piped by hand rather than with pipeline(), which would destroy the request on a refusal and
  // cut the connection before the answer: the rest of a refused body is read and dropped.
  return new Promise<PhotoForm>((resolve, reject) => {
    let settled = false;
    let received = 0;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      body.unpipe(parser);
      body.resume();
      reject(error);
    };
    body.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > PHOTO_REQUEST_MAX_BYTES) fail(photoTooLarge());
    });
    body.on("error", () => fail(new UnreadableFormError()));
    parser.on("error", () => fail(new UnreadableFormError()));
    parser.on("close", () => {
      if (settled) return;
      settled = true;
      resolve({ fields, photo: photos[0] ?? null, photos });
    });
    body.pipe(parser);
  });
}
