import { Form, Link, redirect } from "react-router";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import {
  REFUND_METHODS,
  REFUND_REFERENCE_MAX,
  REJECTION_REASON_MAX,
} from "../../server/modules/orders/return-values.shared";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import { requestContext } from "../context";
import { Field, FormError, SelectField, formFailure, formValues } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { foundOr404 } from "../lib/not-found";
import { OrderNumber, ReturnStatusBadge, addressLine } from "../orders/order-display";
import type { Route } from "./+types/return-details";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const orderReturn = await foundOr404(services.returnDesk.getDeskReturn(params.returnId));
  // Where to fetch the watch from, and whom to call about it: the order's address and mobile number.
  const { phone, address } = await services.orders.getOrder(admin, orderReturn.order);
  return { orderReturn, pickUp: { phone, address } };
}

/**
 * Moving a return on (docs/product.md, "Returns"), one form per next step, told apart by
 * `intent`: approve; reject with the reason the customer reads; received, with the refund.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  const input =
    values.intent === "approve"
      ? { status: "Approved" }
      : values.intent === "reject"
        ? { status: "Rejected", rejectionReason: values.rejectionReason }
        : values.intent === "receive"
          ? { status: "Received", refund: { method: values.method, reference: values.reference } }
          : {};
  let status: string;
  try {
    status = (await services.returns.updateReturn(params.returnId, input)).status;
  } catch (error) {
    return formFailure(error, values, { fallback: "Failed to update the return" });
  }
  session.setFlash({ tone: "success", message: `Return marked ${status}` });
  throw redirect(`/admin/returns/${params.returnId}`, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Return", noindex: true });

export default function AdminReturnDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { orderReturn, pickUp } = loaderData;
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  const short = shortOrderId(orderReturn.order);
  return (
    <section className="card order-details">
      <p>
        <Link to="/admin/returns">← Back to Returns</Link>
      </p>
      <h1>{`Return of order #${short}`}</h1>
      <FormError message={actionData?.formError} />
      <dl className="details">
        <dt>Order</dt>
        <dd>
          <Link to={`/admin/orders/${orderReturn.order}`}>
            <OrderNumber id={orderReturn.order} />
          </Link>
        </dd>
        <dt>Customer</dt>
        <dd>{`${orderReturn.customer.name} (${orderReturn.customer.email})`}</dd>
        <dt>Mobile Number</dt>
        <dd>
          {pickUp.phone ? <a href={`tel:${pickUp.phone}`}>{formatPakistaniMobile(pickUp.phone)}</a> : "None given"}
        </dd>
        <dt>Pick up from</dt>
        <dd>
          <address className="order-address">{addressLine(pickUp.address)}</address>
        </dd>
        <dt>Requested</dt>
        <dd>{formatStoreDateTime(orderReturn.createdAt)}</dd>
        <dt>Items</dt>
        <dd>
          <ul className="link-list">
            {orderReturn.items.map((item, index) => (
              <li key={`${item.product._id ?? "gone"}-${index}`}>
                {`${item.quantity} × ${item.product.name} at ${formatRupees(item.price)}`}
              </li>
            ))}
          </ul>
        </dd>
        <dt>Reason</dt>
        <dd>{orderReturn.reason}</dd>
        <dt>Note</dt>
        <dd>{orderReturn.note ?? "None"}</dd>
        <dt>Refund</dt>
        <dd>
          {formatRupees(orderReturn.refundAmount)}
          {orderReturn.refund
            ? ` by ${orderReturn.refund.method}${orderReturn.refund.reference ? `, reference ${orderReturn.refund.reference}` : ""}`
            : ""}
        </dd>
        <dt>Status</dt>
        <dd>
          <ReturnStatusBadge status={orderReturn.status} />
          {orderReturn.rejectionReason ? ` ${orderReturn.rejectionReason}` : null}
        </dd>
      </dl>

      {orderReturn.status === "Requested" ? (
        <>
          <h2>Approve or reject</h2>
          <Form method="post" className="actions">
            <input type="hidden" name="intent" value="approve" />
            <button type="submit" className="button">
              Approve Return
            </button>
          </Form>
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="reject" />
            <Field
              name="rejectionReason"
              label="Reason for rejecting (the customer reads it)"
              error={errors.rejectionReason}
            >
              <textarea
                id="field-rejectionReason"
                name="rejectionReason"
                rows={3}
                maxLength={REJECTION_REASON_MAX}
                defaultValue={values.rejectionReason}
                aria-invalid={errors.rejectionReason ? true : undefined}
                aria-describedby={errors.rejectionReason ? "field-rejectionReason-error" : undefined}
              />
            </Field>
            <button type="submit" className="button button--danger">
              Reject Return
            </button>
          </Form>
        </>
      ) : null}

      {orderReturn.status === "Approved" ? (
        <>
          <h2>Watch received</h2>
          <p className="muted">
            Marking it received puts the returned watches back in stock and records the refund to the customer.
          </p>
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="receive" />
            <div className="form-row">
              <SelectField
                name="method"
                label="Refund method"
                error={errors.method}
                defaultValue={values.method ?? ""}
                placeholder="Choose how it was refunded"
                options={REFUND_METHODS}
              />
              <Field
                name="reference"
                label="Reference"
                defaultValue={values.reference}
                error={errors.reference}
                maxLength={REFUND_REFERENCE_MAX}
                autoComplete="off"
                hint="The transfer's or wallet's transaction id (optional for cash)"
              />
            </div>
            <button type="submit" className="button">
              {`Mark Received and Refunded ${formatRupees(orderReturn.refundAmount)}`}
            </button>
          </Form>
        </>
      ) : null}
    </section>
  );
}
