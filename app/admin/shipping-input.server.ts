import * as yup from "yup";
import { InvalidInputError } from "../../server/modules/shared/errors.shared";
import { withRules, type InputWithRules } from "../../server/modules/shared/input-rules.shared";

/**
 * The ship page's form as the status change takes it, with the page's own rules (docs/product.md,
 * "Shipping an order"): the courier and the tracking number both, and for an order not confirmed
 * by phone, the admin's second yes (`shipUnconfirmed`).
 */
export function shippingInput(values: Record<string, string>, order: { unconfirmed: boolean }): InputWithRules {
  return withRules(
    { status: "Shipped", courier: values.courier, trackingNumber: values.trackingNumber },
    shippingPageRules(order.unconfirmed),
    values,
  );
}

const SECOND_ASK = "shipUnconfirmed";

const shippingPageRules = (unconfirmed: boolean) =>
  yup.object({
    courier: yup.string().trim().required("Choose the courier"),
    trackingNumber: yup.string().trim().required("Tracking number is required"),
    [SECOND_ASK]: yup
      .string()
      .test(SECOND_ASK, "This order has not been confirmed by phone", (value) => !unconfirmed || value === "true"),
  });

/** Every other field is right: the page asks the question, a second submit that works without JavaScript. */
export function isOnlyTheSecondAsk(error: unknown): boolean {
  return error instanceof InvalidInputError && error.errors.every((problem) => problem.field === SECOND_ASK);
}
