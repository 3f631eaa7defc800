import express, { type Router } from "express";
import { PHOTO_FILE_PATTERN } from "../modules/catalog/photo-processing";
import { isDatabaseUnavailable } from "../modules/shared/errors.shared";
import type { Services } from "../start-up/services";

/** The files of a photo never change (their names are hashes of their bytes): a year, and no asking again. */
export const PHOTO_CACHE_CONTROL = "public, max-age=31536000, immutable";
/**
 * A review's photo stops being served when an admin hides the review (photo-store.ts): caches
 * keep it five minutes, so that it is gone from every screen within them.
 */
export const REVIEW_PHOTO_CACHE_CONTROL = "public, max-age=300";

type PhotoFile = { bytes: Buffer; type: string; ofReview: boolean };

/**
 * GET /photos/<file>: a variant of a product or published review's photo
 * (docs/decisions/2026-11-23-product-photos.md).
 * The bytes live in PostgreSQL, so every app server answers for every photo; each server keeps
 * the files it served lately in memory (least recently used first out, up to maxBytes), so a
 * popular photo costs the database one query per server. Browsers and proxies keep them a year.
 */
export function photoFiles(services: Services, options: { maxBytes: number } = { maxBytes: 48 * 1024 * 1024 }): Router {
  const cache = new Map<string, PhotoFile>();
  let cachedBytes = 0;
  const remember = (file: string, photo: PhotoFile) => {
    // A review's photo is asked of the database each time: its review may be hidden since.
    if (photo.ofReview || photo.bytes.length > options.maxBytes / 4) return;
    cache.set(file, photo);
    cachedBytes += photo.bytes.length;
    for (const [oldest, old] of cache) {
      if (cachedBytes <= options.maxBytes) break;
      cache.delete(oldest);
      cachedBytes -= old.bytes.length;
    }
  };

  const router = express.Router();
  router.get("/photos/:file", async (req, res) => {
    const file = req.params.file;
    if (!PHOTO_FILE_PATTERN.test(file)) return notFound(res);
    let photo = cache.get(file);
    if (photo) {
      // Most recently used: to the end of the map's order.
      cache.delete(file);
      cache.set(file, photo);
    } else {
      try {
        photo = (await services.catalog.photoFile(file)) ?? undefined;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        res
          .status(503)
          .set("Retry-After", "5")
          .set("Cache-Control", "no-store")
          .type("text/plain")
          .send("Service temporarily unavailable");
        return;
      }
      if (!photo) return notFound(res);
      remember(file, photo);
    }
    res.set({
      "Content-Type": photo.type,
      "Cache-Control": photo.ofReview ? REVIEW_PHOTO_CACHE_CONTROL : PHOTO_CACHE_CONTROL,
      ETag: `"${file}"`,
      // API clients show these on their own origins (docs/api.md, "Values").
      "Cross-Origin-Resource-Policy": "cross-origin",
    });
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.set("Content-Length", String(photo.bytes.length));
    res.end(req.method === "HEAD" ? undefined : photo.bytes);
  });
  return router;
}

function notFound(res: express.Response) {
  // Unknown names may become known (another server's upload a moment ago): not cached for long.
  res.status(404).set("Cache-Control", "no-cache").type("text/plain").send("Not found");
}
