import { Model } from "objection";
import { BaseModel } from "../../db/base.model";
import type { ProductImage } from "../shared/product-images.shared";
import type { ReviewStatus } from "./review-values.shared";
import type { PublicReview } from "./review.shape";

/** One of a review's photos, in the order the customer chose them. */
export class ReviewPhoto extends Model {
  static tableName = "review_photos";
  static idColumn = ["reviewId", "position"];
  static jsonAttributes = ["images"];

  reviewId!: string;
  position!: number;
  photoId!: string;
  images!: ProductImage[];
  placeholder!: string | null;

  static modifiers = {
    inOrder(query: ReturnType<typeof ReviewPhoto.query>) {
      query.orderBy("position");
    },
  };
}

/** A customer's review of a watch they received (docs/product.md, "Reviews"). */
export class Review extends BaseModel {
  static tableName = "reviews";

  id!: string;
  productId!: string;
  /** Null once the account is deleted; the review and its author's name stay. */
  userId!: string | null;
  orderId!: string | null;
  authorName!: string;
  purchasedAt!: Date;
  rating!: number;
  title!: string;
  body!: string;
  status!: ReviewStatus;
  hiddenReason!: string | null;
  publishedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
  photos?: ReviewPhoto[];

  static relationMappings = () => ({
    photos: {
      relation: Model.HasManyRelation,
      modelClass: ReviewPhoto,
      join: { from: "reviews.id", to: "review_photos.reviewId" },
    },
  });

  toPublic(): PublicReview {
    return {
      _id: this.id,
      product: this.productId,
      author: shortName(this.authorName),
      rating: this.rating,
      title: this.title,
      text: this.body,
      photos: (this.photos ?? []).map((photo) => ({ images: photo.images, placeholder: photo.placeholder })),
      verifiedPurchase: true,
      purchasedAt: new Date(this.purchasedAt).toISOString(),
      status: this.status,
      hiddenReason: this.hiddenReason,
      publishedAt: this.publishedAt ? new Date(this.publishedAt).toISOString() : null,
      createdAt: new Date(this.createdAt).toISOString(),
    };
  }
}

/** "Ayesha K.": a reviewer's full name is theirs, not every visitor's. */
export function shortName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "A customer";
  if (words.length === 1) return words[0]!;
  return `${words[0]} ${words[words.length - 1]![0]!.toUpperCase()}.`;
}
