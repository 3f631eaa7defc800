import type { Knex } from "knex";
import { NotFoundError } from "../shared/errors.shared";

/**
 * The customer's screenshot of a bank transfer, kept apart from the public photos (migration
 * 20261127000030): stored with the reference in the caller's transaction, read only for the
 * order's owner and admins. Who may see it is decided here, once, for every route that serves it.
 */

/** What the pipeline made of the upload (catalog's prepareScreenshot). */
export type StoredScreenshot = { image: Buffer; width: number; height: number; thumbnail: Buffer };

/** Who asks: a signed-in user (or nobody). */
export type ScreenshotViewer = { _id: string; role: string } | null;

export type ScreenshotSize = "full" | "thumbnail";

/** The order's one screenshot: a new one replaces the old row, whose bytes go with it. */
export async function storePaymentScreenshot(trx: Knex, orderId: string, screenshot: StoredScreenshot): Promise<void> {
  await trx("payment_screenshots")
    .insert({ orderId, ...screenshot, createdAt: trx.fn.now() })
    .onConflict("orderId")
    .merge();
}

/**
 * The screenshot's bytes (WebP) for the order's owner or an admin; anyone else, a guest, an
 * order without a screenshot or no such order: 404, the same answer, so that nobody learns
 * whether someone else's order exists.
 */
export async function readPaymentScreenshot(
  db: Knex,
  viewer: ScreenshotViewer,
  orderId: string,
  size: ScreenshotSize,
): Promise<Buffer> {
  if (!viewer) throw new NotFoundError("Screenshot not found");
  const query = db("payment_screenshots")
    .join("orders", "orders.id", "payment_screenshots.orderId")
    .where("payment_screenshots.orderId", orderId)
    .first(size === "full" ? "payment_screenshots.image as bytes" : "payment_screenshots.thumbnail as bytes");
  if (viewer.role !== "admin") query.where("orders.userId", viewer._id);
  const row = (await query) as { bytes: Buffer } | undefined;
  if (!row) throw new NotFoundError("Screenshot not found");
  return row.bytes;
}

/** Which of these orders have a screenshot of their transfer (its presence only: the bytes are read where it is served). */
export async function screenshotSent(db: Knex, orderIds: readonly string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const rows: { orderId: string }[] = await db("payment_screenshots").whereIn("orderId", orderIds).select("orderId");
  return new Set(rows.map((row) => row.orderId));
}
