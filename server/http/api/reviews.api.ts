import { defineApiRoute, type ApiRoute } from "../api-route";
import { reviewShape } from "../../modules/reviews/review.shape";
import {
  productReviewsQuerySchema,
  reviewInputSchema,
  reviewListQuerySchema,
  reviewModerationSchema,
} from "../../modules/reviews/reviews.schemas";
import { REVIEW_PHOTOS_MAX } from "../../modules/reviews/review-values.shared";
import { paginationShape } from "../../modules/shared/list-query";
import { arrayOf } from "../../modules/shared/shapes";

/** Reviews (docs/api.md, "Reviews"): buyers write them, admins publish or hide them, anyone reads the published. */
export const reviewsApiRoutes: ApiRoute[] = [
  defineApiRoute({
    method: "get",
    path: "/products/:id/reviews",
    tag: "Reviews",
    summary:
      "A product's published reviews, newest first (page, limit default 10 and at most 1000); pagination.total is the product's reviewCount",
    access: "public",
    query: productReviewsQuerySchema,
    responseData: arrayOf(reviewShape),
    responseExtras: { pagination: paginationShape },
    errorStatuses: [404],
    handler: async ({ services, params, query }) => {
      const { reviews, pagination } = await services.reviews.listPublished(params.id, query);
      return { message: "OK", data: reviews, pagination };
    },
  }),
  defineApiRoute({
    method: "post",
    path: "/products/:id/reviews",
    tag: "Reviews",
    summary:
      "Review a product the caller received: rating 1–5, title (at most 120 characters), text (at most 2,000). It waits for an admin's approval (status pending). As JSON, or as multipart/form-data with the same fields and up to 3 photos in the field `image` (repeated), each read like a product's photo: over 10 MB 413, any other refusal of a photo 400 on `image`. No Delivered order of the product: 403; a second review of it: 409; invalid input: 400",
    access: "signed-in",
    body: reviewInputSchema,
    photosWithBody: REVIEW_PHOTOS_MAX,
    successStatus: 201,
    responseData: reviewShape,
    errorStatuses: [403, 404, 409],
    handler: async ({ services, user, params, readForm }) => ({
      message: "Thank you: your review will appear once approved",
      data: await services.reviews.submitReview(user!._id, params.id, readForm),
    }),
  }),
  defineApiRoute({
    method: "get",
    path: "/reviews",
    tag: "Reviews",
    summary: "Every review, pending first, then newest (page, limit default 20 and at most 1000, status)",
    access: "admin",
    query: reviewListQuerySchema,
    responseData: arrayOf(reviewShape),
    responseExtras: { pagination: paginationShape },
    handler: async ({ services, query }) => {
      const { reviews, pagination } = await services.reviews.listForDesk(query);
      return { message: "OK", data: reviews.map(({ productName: _productName, ...review }) => review), pagination };
    },
  }),
  defineApiRoute({
    method: "patch",
    path: "/reviews/:id",
    tag: "Reviews",
    summary:
      "Publish a review (status approved: its author is mailed the first time and whenever it is published again) or hide it (status hidden, with a reason of at most 300 characters). The product's rating and reviewCount follow at once",
    access: "admin",
    body: reviewModerationSchema,
    responseData: reviewShape,
    errorStatuses: [404],
    handler: async ({ services, params, body }) => ({
      message: "Review updated",
      data: await services.reviews.moderate(params.id, body),
    }),
  }),
];
