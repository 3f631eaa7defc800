import { Form } from "react-router";
import { DISCOUNT_CODE_MAX, PERCENT_MAX, PERCENT_MIN } from "../../server/modules/discounts/discount-values.shared";
import type { PublicDiscount } from "../../server/modules/discounts/discounts.service";
import { STORE_TIME_ZONE } from "../../server/modules/orders/order-values.shared";
import { dateToZonedLocal } from "../../server/modules/shared/zoned-time.shared";
import { Field, FormActions, FormError, type FormFailure } from "../lib/forms";

/** The fields of a code as the form shows them: the saved code, or what was just typed. Times in Pakistan. */
export function discountFormValues(
  discount: PublicDiscount | null,
  failure: FormFailure | undefined,
): Record<string, string> {
  if (failure) return failure.values;
  if (!discount) return { type: "percent", active: "on" };
  return {
    code: discount.code,
    type: discount.type,
    value: String(discount.value),
    firstOrderOnly: discount.firstOrderOnly ? "on" : "",
    active: discount.active ? "on" : "",
    startsAt: dateToZonedLocal(discount.startsAt, STORE_TIME_ZONE),
    endsAt: dateToZonedLocal(discount.endsAt, STORE_TIME_ZONE),
    maxUses: discount.maxUses === null ? "" : String(discount.maxUses),
  };
}

/**
 * New and Edit share this form (docs/product.md, "Discount codes"). noValidate: the server's
 * messages are the ones shown, with or without JavaScript.
 */
export function DiscountForm({
  values,
  failure,
  submitLabel,
  pendingLabel,
}: {
  values: Record<string, string>;
  failure: FormFailure | undefined;
  submitLabel: string;
  pendingLabel: string;
}) {
  const errors = failure?.fieldErrors ?? {};
  return (
    <>
      <FormError message={failure?.formError} />
      <Form method="post" noValidate className="card">
        <Field
          name="code"
          label="Code"
          defaultValue={values.code}
          error={errors.code}
          required
          maxLength={DISCOUNT_CODE_MAX}
          autoComplete="off"
          hint="3 to 20 letters and digits; shoppers may type it in any case"
        />
        <div className="form-row">
          <Field name="type" label="Type" error={errors.type}>
            <select
              id="field-type"
              name="type"
              defaultValue={values.type ?? "percent"}
              aria-invalid={errors.type ? true : undefined}
              aria-describedby={errors.type ? "field-type-error" : undefined}
            >
              <option value="percent">Percent off the goods</option>
              <option value="fixed">Fixed amount off (Rs.)</option>
            </select>
          </Field>
          <Field
            name="value"
            label="Value"
            type="number"
            inputMode="decimal"
            min={0}
            step="0.01"
            defaultValue={values.value}
            error={errors.value}
            required
            hint={`A percentage of ${PERCENT_MIN} to ${PERCENT_MAX}, or rupees`}
          />
        </div>
        <div className="field">
          <label className="choice">
            <input type="checkbox" name="firstOrderOnly" defaultChecked={values.firstOrderOnly === "on"} /> First order
            only (a customer whose orders were all cancelled still counts as new)
          </label>
          <label className="choice">
            <input type="checkbox" name="active" defaultChecked={values.active === "on"} /> Active (shoppers can use it)
          </label>
        </div>
        <div className="form-row form-row--wide">
          <Field
            name="startsAt"
            label="Starts (optional)"
            type="datetime-local"
            defaultValue={values.startsAt}
            error={errors.startsAt}
            hint="Pakistan time; empty: at once"
          />
          <Field
            name="endsAt"
            label="Ends (optional)"
            type="datetime-local"
            defaultValue={values.endsAt}
            error={errors.endsAt}
            hint="Pakistan time; empty: no end"
          />
        </div>
        <Field
          name="maxUses"
          label="Maximum uses (optional)"
          type="number"
          inputMode="numeric"
          min={1}
          step="1"
          defaultValue={values.maxUses}
          error={errors.maxUses}
          hint="Orders in all that may use it; a cancelled order gives its use back"
        />
        <FormActions label={submitLabel} pendingLabel={pendingLabel} cancelTo="/admin/discounts" />
      </Form>
    </>
  );
}
