import { Form, Link, redirect } from "react-router";
import { RETURN_TO_SENDER_REASONS, shortOrderId } from "../../server/modules/orders/order-values.shared";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import { requestContext } from "../context";
import { FormError, formFailure, formValues, type FormFailure } from "../lib/forms";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { foundOr404 } from "../lib/not-found";
import { OrderNumber, StatusBadge } from "../orders/order-display";
import type { Route } from "./+types/order-outcome";

/**
 * The parcel's outcome (docs/product.md, "Returned to sender"), the confirm step of the order
 * page's links: a Shipped order is marked returned to sender with its reason; a returned one is
 * marked received back, which puts its watches back in stock. Plain forms answered by a redirect.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const order = await foundOr404(services.orderDesk.getDeskOrder(params.orderId));
  return { order };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  try {
    if (values.intent === "received-back") {
      await services.fulfilment.receiveBack(params.orderId);
      session.setFlash({ tone: "success", message: "The parcel is received back: its watches are back in stock." });
    } else {
      await services.fulfilment.recordOutcome(params.orderId, { kind: "returned", reason: values.reason });
      session.setFlash({ tone: "success", message: "The order is marked returned to sender and cancelled." });
    }
  } catch (error) {
    return formFailure(error, values, { fallback: "Failed to record the parcel's outcome" });
  }
  throw redirect(`/admin/orders/${params.orderId}`, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Parcel Returned", noindex: true });

export default function OrderOutcome({ loaderData, actionData }: Route.ComponentProps) {
  const { order } = loaderData;
  const failure = actionData as FormFailure | undefined;
  const errors = failure?.fieldErrors ?? {};
  const short = shortOrderId(order._id);
  const back = (
    <Link className="button button--ghost" to={`/admin/orders/${order._id}`}>
      No, go back
    </Link>
  );
  const details = (
    <dl className="details card">
      <dt>Customer</dt>
      <dd>{order.user.name}</dd>
      <dt>Mobile Number</dt>
      <dd>{order.phone ? formatPakistaniMobile(order.phone) : "None given"}</dd>
      <dt>Total</dt>
      <dd>{formatRupees(order.totalPrice)}</dd>
      <dt>Status</dt>
      <dd>
        <StatusBadge status={order.status} />
      </dd>
      <dt>Courier</dt>
      <dd>{order.courier ? `${order.courier}, ${order.trackingNumber ?? "no tracking number"}` : "None"}</dd>
    </dl>
  );
  if (order.outcome && !order.outcome.receivedBackAt && order.status === "Cancelled") {
    return (
      <section className="form-page">
        <h1>
          Parcel of order <OrderNumber id={order._id} /> received back
        </h1>
        {details}
        <FormError message={failure?.formError} />
        <Form method="post" className="card">
          <input type="hidden" name="intent" value="received-back" />
          <p className="confirm-question">
            {`Returned to sender on ${formatStoreDateTime(order.outcome.at)} (${order.outcome.reason}). Is the parcel of order #${short} back in the store? Its watches go back in stock.`}
          </p>
          <div className="actions">
            <button type="submit" className="button">
              Yes, received back
            </button>
            {back}
          </div>
        </Form>
      </section>
    );
  }
  if (order.status !== "Shipped") {
    return (
      <section className="form-page">
        <h1>
          Parcel of order <OrderNumber id={order._id} />
        </h1>
        {details}
        <FormError message={failure?.formError} />
        <p>
          {order.outcome?.receivedBackAt
            ? `Returned to sender (${order.outcome.reason}) and received back on ${formatStoreDateTime(order.outcome.receivedBackAt)}.`
            : "Only a shipped order can be marked returned to sender."}
        </p>
        <p>
          <Link to={`/admin/orders/${order._id}`}>← Back to the order</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="form-page">
      <h1>
        Order <OrderNumber id={order._id} /> returned to sender
      </h1>
      {details}
      <FormError message={failure?.formError} />
      <Form method="post" noValidate className="card">
        <input type="hidden" name="intent" value="returned" />
        <fieldset>
          <legend>Why did the parcel come back?</legend>
          {RETURN_TO_SENDER_REASONS.map((reason) => (
            <label key={reason} className="choice">
              <input
                type="radio"
                name="reason"
                value={reason}
                defaultChecked={failure?.values.reason === reason}
                aria-describedby={errors.reason ? "field-reason-error" : undefined}
              />{" "}
              {reason}
            </label>
          ))}
          {errors.reason ? (
            <p className="field-error" id="field-reason-error" role="alert">
              {errors.reason}
            </p>
          ) : null}
        </fieldset>
        <p className="muted">
          {`Order #${short} becomes Cancelled; the customer is not mailed. Its watches come back in stock when you mark the parcel received back.`}
        </p>
        <div className="actions">
          <button type="submit" className="button">
            Mark returned to sender
          </button>
          {back}
        </div>
      </Form>
    </section>
  );
}
