import { Form } from "react-router";
import { REFUND_METHODS, REFUND_REFERENCE_MAX } from "../../server/modules/orders/return-values.shared";
import type { PublicOrder } from "../../server/modules/orders/order.shape";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { Field, FormError, SelectField, type FormFailure } from "../lib/forms";
import { formatRupees } from "../lib/money";

/**
 * The money a cancelled order owes its customer (docs/product.md, "An order's life"): a verified
 * transfer or a delivered parcel's cash the store holds. Due, the admin records how it was paid
 * back (method, and the transaction's reference unless it was cash); paid, what was recorded.
 * A plain form to the order's page; a refused one comes back with its fields kept.
 */
export function AdminOrderRefund({ order, failure }: { order: PublicOrder; failure: FormFailure | null }) {
  const { refund } = order;
  if (!refund) return null;
  if (refund.status === "paid") {
    return (
      <section className="section" aria-labelledby="order-refund">
        <h2 id="order-refund">Refund</h2>
        <p>
          {`Refunded ${formatRupees(refund.amount)} by ${refund.method}`}
          {refund.reference ? `, reference ${refund.reference}` : ""}
          {refund.paidAt ? `, ${formatStoreDateTime(refund.paidAt)}` : ""}.
        </p>
      </section>
    );
  }
  const errors = failure?.fieldErrors ?? {};
  const value = (name: "method" | "reference") => failure?.values[name] ?? "";
  return (
    <section className="section" aria-labelledby="order-refund">
      <h2 id="order-refund">Refund</h2>
      <p>{`${formatRupees(refund.amount)} is owed to the customer: the store received it for this cancelled order.`}</p>
      {order.actions.recordRefund ? (
        <Form method="post" action={`/admin/orders/${order._id}`} noValidate className="card">
          <FormError message={failure?.formError} />
          <input type="hidden" name="intent" value="record-refund" />
          <SelectField
            name="method"
            label="Refunded by"
            error={errors.method}
            defaultValue={value("method")}
            placeholder="Choose how it was paid back"
            options={REFUND_METHODS}
            required
          />
          <Field name="reference" label="Transaction reference (not for cash)" error={errors.reference}>
            <input
              id="field-reference"
              name="reference"
              type="text"
              maxLength={REFUND_REFERENCE_MAX}
              defaultValue={value("reference")}
              aria-invalid={errors.reference ? true : undefined}
              aria-describedby={errors.reference ? "field-reference-error" : undefined}
            />
          </Field>
          <button type="submit" className="button">
            Record the refund
          </button>
        </Form>
      ) : null}
    </section>
  );
}
