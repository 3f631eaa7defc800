import { productImagesShape } from "../shared/product-images.shape";
import {
  arrayOf,
  constant,
  dateTime,
  described,
  integer,
  nullable,
  object,
  oneOf,
  text,
  uuid,
  type ShapeOf,
} from "../shared/shapes";
import { REVIEW_STATUSES } from "./review-values.shared";

/** A review as shoppers and admins read it (docs/product.md, "Reviews"). */
export const reviewShape = object({
  _id: uuid(),
  product: described(uuid(), "The id of the product reviewed"),
  author: described(text(), "The reviewer's first name and the initial of the last, as the pages show it"),
  rating: integer({ minimum: 1, maximum: 5 }),
  title: text({ maxLength: 120 }),
  text: text({ maxLength: 2000 }),
  photos: described(
    arrayOf(object({ images: productImagesShape, placeholder: nullable(text()) }), { maxItems: 3 }),
    "Up to 3 photos, each at several widths like a product's",
  ),
  verifiedPurchase: described(
    constant(true),
    "Always true: only a customer whose order of the product was delivered may review it",
  ),
  purchasedAt: dateTime({ description: "When the order the review comes from was placed (pages show its month)" }),
  status: described(oneOf(REVIEW_STATUSES), "pending until an admin approves (published) or hides it"),
  hiddenReason: described(nullable(text()), "Why an admin hid it (admins only see hidden reviews); null otherwise"),
  publishedAt: nullable(dateTime()),
  createdAt: dateTime(),
});
export type PublicReview = ShapeOf<typeof reviewShape>;
