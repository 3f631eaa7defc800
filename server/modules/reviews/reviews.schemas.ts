import * as yup from "yup";
import { blankToUndefined, emptyToUndefined, limitParam, pageParam } from "../shared/list-query";
import {
  REVIEW_HIDDEN_REASON_MAX,
  REVIEW_RATING_MAX,
  REVIEW_RATING_MIN,
  REVIEW_STATUSES,
  REVIEW_TEXT_MAX,
  REVIEW_TITLE_MAX,
  REVIEWS_PAGE_SIZE,
} from "./review-values.shared";

const trimmed = (value: unknown) => (typeof value === "string" ? value.trim() : value);
const asText = (value: unknown) => (value == null || typeof value === "string" ? value : String(value));

/** POST /api/v1/products/{id}/reviews and the review form (docs/product.md, "Reviews"). */
export const reviewInputSchema = yup.object({
  rating: yup
    .number()
    .transform(emptyToUndefined)
    .typeError(`Rating must be a whole number from ${REVIEW_RATING_MIN} to ${REVIEW_RATING_MAX}`)
    .required("Choose a rating")
    .integer(`Rating must be a whole number from ${REVIEW_RATING_MIN} to ${REVIEW_RATING_MAX}`)
    .min(REVIEW_RATING_MIN, `Rating must be a whole number from ${REVIEW_RATING_MIN} to ${REVIEW_RATING_MAX}`)
    .max(REVIEW_RATING_MAX, `Rating must be a whole number from ${REVIEW_RATING_MIN} to ${REVIEW_RATING_MAX}`),
  title: yup
    .string()
    .transform(blankToUndefined)
    .transform(trimmed)
    .typeError("Title must be text")
    .required("Title is required")
    .max(REVIEW_TITLE_MAX, `Title must be at most ${REVIEW_TITLE_MAX} characters`),
  text: yup
    .string()
    .transform(blankToUndefined)
    .transform(trimmed)
    .typeError("Review must be text")
    .required("Write a few words about the watch")
    .max(REVIEW_TEXT_MAX, `Review must be at most ${REVIEW_TEXT_MAX} characters`),
});
export type ReviewInput = yup.InferType<typeof reviewInputSchema>;

const MODERATIONS = ["approved", "hidden"] as const;

/** PATCH /api/v1/reviews/{id} and /admin/reviews: approve, or hide with the reason kept for the admins. */
export const reviewModerationSchema = yup.object({
  status: yup
    .string()
    .transform(blankToUndefined)
    .transform(asText)
    .required("Status is required")
    .oneOf(MODERATIONS, `Status must be one of ${MODERATIONS.join(", ")}`),
  reason: yup
    .string()
    .transform(blankToUndefined)
    .transform(trimmed)
    .typeError("Reason must be text")
    .max(REVIEW_HIDDEN_REASON_MAX, `Reason must be at most ${REVIEW_HIDDEN_REASON_MAX} characters`)
    .when("status", {
      is: "hidden",
      then: (schema) => schema.required("Say why the review is hidden"),
    }),
});

/** GET /api/v1/products/{id}/reviews: newest published first. */
export const productReviewsQuerySchema = yup.object({
  page: pageParam(),
  limit: limitParam(REVIEWS_PAGE_SIZE),
});

/** GET /api/v1/reviews and /admin/reviews: pending first, then newest; optionally one status. */
export const reviewListQuerySchema = yup.object({
  page: pageParam(),
  limit: limitParam(20),
  status: yup
    .string()
    .transform(blankToUndefined)
    .transform(asText)
    .oneOf(REVIEW_STATUSES, `Status must be one of ${REVIEW_STATUSES.join(", ")}`),
});
