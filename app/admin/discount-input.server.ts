import * as yup from "yup";
import { STORE_TIME_ZONE } from "../../server/modules/orders/order-values.shared";
import { withRules, type InputWithRules } from "../../server/modules/shared/input-rules.shared";
import { isZonedLocal, zonedLocalToDate } from "../../server/modules/shared/zoned-time.shared";

/**
 * The form's fields as the discount operations take them (docs/product.md, "Discount codes"): a
 * ticked box is "on" and an unticked one absent (no), and times are typed in Pakistan's time
 * (datetime-local), turned here into instants. A time that is not one is left out and said by
 * the page's own rule, in the page's words.
 */
export function discountInput(values: Record<string, string>): InputWithRules {
  const ticked = (field: string) => values[field] === "on" || values[field] === "true";
  const instant = (field: string) => {
    const typed = values[field]?.trim() ?? "";
    if (typed === "") return "";
    return isZonedLocal(typed) ? zonedLocalToDate(typed, STORE_TIME_ZONE)!.toISOString() : undefined;
  };
  return withRules(
    {
      ...values,
      firstOrderOnly: ticked("firstOrderOnly"),
      active: ticked("active"),
      startsAt: instant("startsAt"),
      endsAt: instant("endsAt"),
    },
    discountPageRules,
    values,
  );
}

const typedTime = (label: string) =>
  yup
    .string()
    .test(
      "datetime-local",
      `${label} must be a date and time`,
      (value) => !value?.trim() || isZonedLocal(value.trim()),
    );

const discountPageRules = yup.object({ startsAt: typedTime("Starts"), endsAt: typedTime("Ends") });
