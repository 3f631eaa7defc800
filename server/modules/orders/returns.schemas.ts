import * as yup from "yup";
import { limitParam, pageParam, emptyToUndefined } from "../shared/list-query";
import {
  REFUND_METHODS,
  REFUND_REFERENCE_MAX,
  REJECTION_REASON_MAX,
  RETURN_NOTE_MAX,
  RETURN_REASONS,
  RETURN_STATUSES,
} from "./return-values.shared";

/** Trimmed only when it is text (yup's trim() calls value.trim() on whatever arrives). */
const trimmed = (value: unknown) => (typeof value === "string" ? value.trim() : value);
const blankToUndefined = (value: unknown, original: unknown) =>
  original === null || (typeof original === "string" && original.trim() === "") ? undefined : value;
const asText = (value: unknown) => (value == null || typeof value === "string" ? value : String(value));

const REASON_MESSAGE = `Reason must be one of ${RETURN_REASONS.join(", ")}`;
export const RETURN_ITEMS_MAX = 100;

/**
 * POST /api/v1/orders/{id}/returns and the customer's return form (docs/product.md, "Returns"):
 * the watches and how many of each, a reason from the list, and an optional note.
 */
export const returnRequestSchema = yup.object({
  items: yup
    .array()
    .of(
      yup
        .object({
          productId: yup
            .string()
            .transform(asText)
            .typeError("Choose a watch of the order")
            .required("Choose a watch of the order"),
          quantity: yup
            .number()
            .transform(emptyToUndefined)
            .typeError("Quantity must be a whole number")
            .required("Quantity is required")
            .integer("Quantity must be a whole number")
            .min(1, "Quantity must be at least 1"),
        })
        .typeError("Each item needs a productId and a quantity"),
    )
    .typeError("Items must be a list of watches and quantities")
    .required("Choose at least one watch to return")
    .min(1, "Choose at least one watch to return")
    .max(RETURN_ITEMS_MAX, `At most ${RETURN_ITEMS_MAX} items`),
  reason: yup
    .string()
    .transform(blankToUndefined)
    .transform(asText)
    .required("Choose a reason")
    .oneOf(RETURN_REASONS, REASON_MESSAGE),
  note: yup
    .string()
    .transform(blankToUndefined)
    .transform(trimmed)
    .typeError("Note must be text")
    .max(RETURN_NOTE_MAX, `Note must be at most ${RETURN_NOTE_MAX} characters`),
});

const NEXT_STATUSES = ["Approved", "Rejected", "Received"] as const;
const NEXT_STATUS_MESSAGE = `Status must be one of ${NEXT_STATUSES.join(", ")}`;

/**
 * A refund as the admin records it (a return received, a cancelled paid order): how it was paid
 * back, and the transaction's reference (optional for cash).
 */
export const refundRecordSchema = yup.object({
  method: yup
    .string()
    .transform(blankToUndefined)
    .transform(asText)
    .required("Choose how the refund was made")
    .oneOf(REFUND_METHODS, `Refund method must be one of ${REFUND_METHODS.join(", ")}`),
  reference: yup
    .string()
    .transform(blankToUndefined)
    .transform(trimmed)
    .typeError("Reference must be text")
    .max(REFUND_REFERENCE_MAX, `Reference must be at most ${REFUND_REFERENCE_MAX} characters`)
    .when("method", {
      is: (method: unknown) => typeof method === "string" && method !== "Cash",
      then: (schema) => schema.required("Enter the transaction's reference"),
    }),
});

/**
 * PATCH /api/v1/returns/{id} and the admin's return page: the next status, with the reason the
 * customer reads for Rejected and the refund for Received (docs/product.md, "Returns").
 */
export const returnUpdateSchema = yup.object({
  status: yup
    .string()
    .transform(blankToUndefined)
    .transform(asText)
    .required("Status is required")
    .oneOf(NEXT_STATUSES, NEXT_STATUS_MESSAGE),
  rejectionReason: yup
    .string()
    .transform(blankToUndefined)
    .transform(trimmed)
    .typeError("Reason must be text")
    .max(REJECTION_REASON_MAX, `Reason must be at most ${REJECTION_REASON_MAX} characters`)
    .when("status", {
      is: "Rejected",
      then: (schema) => schema.required("Say why the return is rejected: the customer reads it"),
      otherwise: (schema) =>
        schema.test("rejected-only", "A reason is given only with the status Rejected", (value) => value === undefined),
    }),
  refund: refundRecordSchema
    .default(undefined)
    .transform((value, original) => (original === null ? undefined : value))
    .typeError("Refund must have a method and a reference")
    .when("status", {
      is: "Received",
      then: (schema) => schema.required("Give the refund: its method and reference"),
      otherwise: (schema) =>
        schema.test("received-only", "A refund is given only with the status Received", (value) => value === undefined),
    }),
});

/** GET /api/v1/returns and the admin's list: newest first, 20 a page (at most 100), by status. */
export const returnListQuerySchema = yup.object({
  page: pageParam(),
  limit: limitParam(20).max(100, "Limit must be between 1 and 100"),
  status: yup
    .string()
    .transform(emptyToUndefined)
    .transform(asText)
    .oneOf([...RETURN_STATUSES, undefined], `Status must be one of ${RETURN_STATUSES.join(", ")}`),
});
