import * as yup from "yup";
import { COURIER_MESSAGE, COURIER_NAMES, trackingNumberRuleOf } from "../providers/couriers/courier-providers.shared";
import { ORDER_STATUSES, OUTCOME_KINDS, RETURN_TO_SENDER_REASONS } from "../modules/orders/order-values.shared";
import { STATUS_MESSAGE, statusAsText } from "../modules/orders/orders.schemas";
import { blankToUndefined } from "../modules/shared/list-query";

const OUTCOME_MESSAGE = `Outcome must be ${OUTCOME_KINDS.join(", ")}`;
const REASON_MESSAGE = `Reason must be one of: ${RETURN_TO_SENDER_REASONS.join(", ")}`;

const shippedOnly = (label: string) =>
  function (this: yup.TestContext, value: unknown) {
    return value === undefined || this.parent.status === "Shipped"
      ? true
      : this.createError({ message: `${label} can only be given with the status Shipped` });
  };

/**
 * A status change, from the admin pages or PATCH /api/v1/orders/{id}/status: the status, and with
 * Shipped optionally the courier and the tracking number (docs/product.md, "Shipping an order"),
 * the number as the courier's provider writes them (server/providers/couriers/). The pages ask
 * for both with Shipped, as their own rule (app/admin/order-ship.tsx); a status-only body works.
 */
export const orderStatusSchema = yup.object({
  status: yup.string().transform(statusAsText).required("Status is required").oneOf(ORDER_STATUSES, STATUS_MESSAGE),
  courier: yup
    .string()
    .transform(blankToUndefined)
    .transform(statusAsText)
    .oneOf([...COURIER_NAMES, undefined], COURIER_MESSAGE)
    .test("shipped-only", "", shippedOnly("A courier")),
  trackingNumber: yup
    .string()
    .transform(blankToUndefined)
    .transform((value) => (typeof value === "string" ? value.trim() : value))
    .typeError(trackingNumberRuleOf(undefined).message)
    .test("tracking-number", "", function (value) {
      if (value === undefined) return true;
      const rule = trackingNumberRuleOf(typeof this.parent.courier === "string" ? this.parent.courier : undefined);
      return value.length <= rule.maxLength && rule.pattern.test(value)
        ? true
        : this.createError({ message: rule.message });
    })
    .test("shipped-only", "", shippedOnly("A tracking number")),
});

/**
 * The parcel's outcome, from the admin's page or POST /api/v1/orders/{id}/outcome
 * (docs/product.md, "Returned to sender"): returned, with one of the reasons.
 */
export const orderOutcomeSchema = yup.object({
  kind: yup
    .string()
    .typeError(OUTCOME_MESSAGE)
    .required("Outcome is required")
    .oneOf([...OUTCOME_KINDS], OUTCOME_MESSAGE),
  reason: yup
    .string()
    .typeError(REASON_MESSAGE)
    .transform(blankToUndefined)
    .required("Choose why the parcel came back")
    .oneOf([...RETURN_TO_SENDER_REASONS], REASON_MESSAGE),
});
