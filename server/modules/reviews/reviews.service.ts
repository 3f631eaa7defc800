import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { User } from "../accounts/user.model";
import type { MailContext } from "../mail/mail-layout";
import { queueMail } from "../mail/outbox";
import { Order } from "../orders/order.model";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "../shared/errors.shared";
import { paginationOf, type Pagination } from "../shared/list-query";
import { validateInput } from "../shared/validation";
import { PhotoLane, PHOTO_QUEUE_MAX_DEFAULT } from "../catalog/photo-lane";
import type { ReadFormWithPhotos } from "../catalog/photo-processing";
import { Product } from "../catalog/product.model";
import { Review } from "./review.model";
import { reviewPublishedMail } from "./review-mails";
import { checkReviewPhotos, prepareReviewPhotos, readReviewPhotoFile, storeReviewPhotos } from "./review-photos";
import { ALREADY_REVIEWED, NOT_A_BUYER, type ReviewStatus } from "./review-values.shared";
import type { PublicReview } from "./review.shape";
import {
  productReviewsQuerySchema,
  reviewInputSchema,
  reviewListQuerySchema,
  reviewModerationSchema,
} from "./reviews.schemas";

export type { PublicReview };

/** A review as the admin list shows it: what the API answers, plus the watch's name. */
export type DeskReview = PublicReview & { productName: string };

/** Where a signed-in customer stands with a watch: may review it, did already, or never received it. */
export type ReviewChance = "may-review" | "reviewed" | "not-a-buyer";

/**
 * Reviews from buyers (docs/product.md, "Reviews"): only a customer with a Delivered order of the
 * watch writes one, once (the unique index decides two sent at once); an admin publishes or
 * hides it, and the product's kept figures (`rating_average`, `rating_count`) change in the same
 * transaction, so cards and lists read them with the product.
 */
export class ReviewsService {
  constructor(
    private readonly db: Database,
    private readonly mail: MailContext,
    /** The process's one photo lane (photo-lane.ts; services.ts), a lane of its own otherwise. */
    private readonly photoLane: PhotoLane = new PhotoLane({ maxWaiting: PHOTO_QUEUE_MAX_DEFAULT }),
  ) {}

  /**
   * A customer's review, pending an admin's approval. Unknown watch: 404; no Delivered order of
   * it: 403; a second review: 409; each decided before the form is read (`readForm`), so that no
   * byte of a photo is read, checked or decoded for someone who may not write the review
   * (docs/decisions/2026-11-29-uploads-authorised-first.md). Then invalid input: 400 (every field
   * at once, photos included).
   */
  async submitReview(userId: string, productId: string, readForm: ReadFormWithPhotos) {
    await this.productOr404(productId);
    const purchase = await deliveredPurchase(this.db, userId, productId);
    if (!purchase) throw new ForbiddenError(NOT_A_BUYER);
    if (await Review.query(this.db).where({ userId, productId }).first()) throw new ConflictError(ALREADY_REVIEWED);

    const { fields, photos } = await readForm();
    const problems: InvalidInputError[] = [];
    let values: ReturnType<typeof reviewInputSchema.validateSync> | undefined;
    try {
      values = validateInput(reviewInputSchema, fields);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      problems.push(error);
    }
    const photoProblem = await checkReviewPhotos(photos);
    if (photoProblem) problems.push(photoProblem);
    if (problems.length > 0 || !values) throw mergedProblems(problems);
    // The photos are processed (seconds of work, in the lane) only for a review that may be written.
    const prepared = await prepareReviewPhotos(photos, this.photoLane);
    const reviewId = await this.db
      .transaction(async (trx) => {
        const author = await User.query(trx).findById(userId).select("name");
        const review = await Review.query(trx).insert({
          productId,
          userId,
          orderId: purchase.id,
          authorName: author?.name ?? "A customer",
          purchasedAt: purchase.createdAt,
          rating: values.rating,
          title: values.title,
          body: values.text,
        });
        await storeReviewPhotos(trx, review.id, prepared);
        return review.id;
      })
      .catch((error: unknown) => {
        throw isSecondReview(error) ? new ConflictError(ALREADY_REVIEWED) : error;
      });
    return this.readReview(reviewId);
  }

  /** Whether the customer may review the watch (the product page's "Write a review"). */
  async reviewChance(userId: string, productId: string): Promise<ReviewChance> {
    if (!isUuid(productId)) return "not-a-buyer";
    if (await Review.query(this.db).where({ userId, productId }).first()) return "reviewed";
    return (await deliveredPurchase(this.db, userId, productId)) ? "may-review" : "not-a-buyer";
  }

  /** Of these watches, those the customer has reviewed already (/my-orders: one query a page). */
  async reviewedAmong(userId: string, productIds: string[]): Promise<string[]> {
    const ids = [...new Set(productIds.filter(isUuid))];
    if (ids.length === 0) return [];
    const rows = await Review.query(this.db).where("userId", userId).whereIn("productId", ids).select("productId");
    return rows.map((row) => row.productId);
  }

  /** A watch's published reviews, newest first; the total is the product's kept count. */
  async listPublished(productId: string, input: unknown): Promise<{ reviews: PublicReview[]; pagination: Pagination }> {
    const { page, limit } = validateInput(productReviewsQuerySchema, input);
    const product = await this.productOr404(productId);
    const rows =
      product.ratingCount === 0
        ? []
        : await Review.query(this.db)
            .where({ productId, status: "approved" })
            .orderBy([
              { column: "publishedAt", order: "desc" },
              { column: "id", order: "desc" },
            ])
            .limit(limit)
            .offset((page - 1) * limit)
            .withGraphFetched("photos(inOrder)");
    return {
      reviews: rows.map((row) => row.toPublic()),
      pagination: paginationOf(page, limit, product.ratingCount),
    };
  }

  /** Every review for the admins: pending first, then newest; or those of one status. */
  async listForDesk(input: unknown): Promise<{ reviews: DeskReview[]; pagination: Pagination }> {
    const { page, limit, status } = validateInput(reviewListQuerySchema, input);
    const filter = <Q extends ReturnType<typeof Review.query>>(query: Q): Q => {
      if (status) query.where("reviews.status", status);
      return query;
    };
    const [rows, total] = await Promise.all([
      filter(Review.query(this.db))
        .join("products", "products.id", "reviews.productId")
        .select("reviews.*", "products.name as productName")
        .orderByRaw("(reviews.status <> 'pending'), reviews.created_at DESC, reviews.id")
        .limit(limit)
        .offset((page - 1) * limit)
        .withGraphFetched("photos(inOrder)"),
      filter(Review.query(this.db)).resultSize(),
    ]);
    return {
      reviews: (rows as (Review & { productName: string })[]).map((row) => ({
        ...row.toPublic(),
        productName: row.productName,
      })),
      pagination: paginationOf(page, limit, total),
    };
  }

  /**
   * An admin publishes a review or hides it with a reason. The product's figures are counted
   * again under its row lock in the same transaction (two approvals of one watch at once take
   * turns), and a review that becomes published mails its author, also in that transaction.
   */
  async moderate(reviewId: string, input: unknown): Promise<PublicReview> {
    const { status, reason } = validateInput(reviewModerationSchema, input);
    if (!isUuid(reviewId)) throw new NotFoundError("Review not found");
    await this.db.transaction(async (trx) => {
      const review = await Review.query(trx).findById(reviewId).forUpdate();
      if (!review) throw new NotFoundError("Review not found");
      const published = status === "approved" && review.status !== "approved";
      await Review.query(trx)
        .findById(reviewId)
        .patch({
          status: status as ReviewStatus,
          hiddenReason: status === "hidden" ? reason! : null,
          ...(published ? { publishedAt: new Date() } : {}),
        });
      await refreshRating(trx, review.productId);
      if (published) await this.mailPublished(trx, review);
    });
    return this.readReview(reviewId);
  }

  /** A file of a review's photo, published or not: for admins only (the route decides who asks). */
  async deskPhotoFile(file: string): Promise<{ bytes: Buffer; type: string } | null> {
    return readReviewPhotoFile(this.db, file);
  }

  async readReview(reviewId: string): Promise<PublicReview> {
    if (!isUuid(reviewId)) throw new NotFoundError("Review not found");
    const review = await Review.query(this.db).findById(reviewId).withGraphFetched("photos(inOrder)");
    if (!review) throw new NotFoundError("Review not found");
    return review.toPublic();
  }

  private async mailPublished(trx: Knex, review: Review): Promise<void> {
    if (!review.userId) return;
    const [author, product] = await Promise.all([
      User.query(trx).findById(review.userId).select("name", "email"),
      Product.query(trx).findById(review.productId).select("name"),
    ]);
    if (!author || !product) return;
    await queueMail(
      trx,
      reviewPublishedMail(this.mail, {
        email: author.email,
        name: author.name,
        productId: review.productId,
        productName: product.name,
        title: review.title,
      }),
    );
  }

  private async productOr404(productId: string): Promise<Pick<Product, "id" | "ratingCount">> {
    const product = isUuid(productId)
      ? await Product.query(this.db).findById(productId).select("id", "ratingCount")
      : undefined;
    if (!product) throw new NotFoundError("Product not found");
    return product;
  }
}

/** The customer's latest Delivered order holding the watch, or undefined. */
async function deliveredPurchase(db: Knex, userId: string, productId: string) {
  return Order.query(db)
    .select("orders.id", "orders.createdAt")
    .where({ "orders.userId": userId, "orders.status": "Delivered" })
    .whereExists(Order.relatedQuery("items").where("items.productId", productId))
    .orderBy("orders.deliveredAt", "desc")
    .first();
}

/**
 * The product's approved average and count, counted again from its reviews: the row is locked
 * first, so the count (a later statement, with a later snapshot) sees every approval committed
 * before it.
 */
export async function refreshRating(trx: Knex, productId: string): Promise<void> {
  await trx.raw("SELECT 1 FROM products WHERE id = ? FOR UPDATE", [productId]);
  await trx.raw(
    `UPDATE products
        SET rating_count = figures.count, rating_average = figures.average
       FROM (SELECT count(*)::int AS count, round(avg(rating), 2) AS average
               FROM reviews WHERE product_id = ? AND status = 'approved') AS figures
      WHERE products.id = ?`,
    [productId, productId],
  );
}

/** The unique index of migration 70 refused a second review (objection wraps the driver's error). */
function isSecondReview(error: unknown): boolean {
  const native = (error as { nativeError?: { code?: string; constraint?: string } }).nativeError;
  return native?.code === "23505" && native.constraint === "reviews_one_per_customer_and_product";
}

function mergedProblems(problems: InvalidInputError[]): InvalidInputError {
  if (problems.length === 1) return problems[0]!;
  const tooLarge = problems.find((problem) => problem.constructor !== InvalidInputError);
  const errors = problems.flatMap((problem) => problem.errors);
  return tooLarge ? new (tooLarge.constructor as typeof InvalidInputError)(errors) : new InvalidInputError(errors);
}
