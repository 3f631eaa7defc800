import { Form, Link, data, redirect } from "react-router";
import { paymentMethodNamed } from "../../server/providers/payment-methods/payment-methods.shared";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import { trackingNumberRuleOf } from "../../server/providers/couriers/courier-providers.shared";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import { requestContext } from "../context";
import { Field, FormError, SelectField, formFailure, formValues, type FormFailure } from "../lib/forms";
import { requireAdmin, safeRedirectPath } from "../lib/guards";
import { isOnlyTheSecondAsk, shippingInput } from "./shipping-input.server";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import { foundOr404 } from "../lib/not-found";
import { OrderAddress, OrderNumber, StatusBadge } from "../orders/order-display";
import type { Route } from "./+types/order-ship";

/**
 * Shipping an order (docs/product.md, "Shipping an order"): the courier and its tracking number,
 * both required here. An order not confirmed by phone is shipped only after a second question
 * (docs/product.md, "Confirming an order by phone"), a second submit that works without JavaScript.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const order = await foundOr404(services.orderDesk.getDeskOrder(params.orderId));
  const returnTo = safeRedirectPath(new URL(request.url).searchParams.get("returnTo"), `/admin/orders/${order._id}`);
  // An order its life does not let ship (an unverified transfer, a cancelled order) says why up
  // front instead of after the form (docs/product.md, "An order's life").
  const refusal =
    order.status === "Shipped" || order.actions.ship
      ? null
      : await services.orders.refusal(order._id, { kind: "shipped" });
  return { order, returnTo, refusal: refusal?.message ?? null, courierNames: services.fulfilment.courierNames };
}

type AskAgain = { askAgain: true; values: Record<string, string> };

export async function action({ request, params, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  const returnTo = safeRedirectPath(values.returnTo, `/admin/orders/${params.orderId}`);
  try {
    // The page's own rules (docs/product.md, "Shipping an order"): both fields, and for an order
    // not confirmed by phone, the admin's second yes (a status-only PATCH of the API ships it as
    // it is). The order is read for the question before the change's own transaction, which is
    // enough for a question: a confirmation undone meanwhile ships unasked.
    const order = await services.orderDesk.getDeskOrder(params.orderId);
    const unconfirmed = order.status !== "Shipped" && !order.readyToShip;
    await services.fulfilment.updateStatus(params.orderId, shippingInput(values, { unconfirmed }));
  } catch (error) {
    if (isOnlyTheSecondAsk(error)) return data<AskAgain>({ askAgain: true, values }, { status: 409 });
    return formFailure(error, values, { fallback: "Failed to update order status" });
  }
  session.setFlash({ tone: "success", message: "Order status updated to Shipped" });
  throw redirect(returnTo, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Ship Order", noindex: true });

export default function ShipOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, returnTo, refusal, courierNames } = loaderData;
  const short = shortOrderId(order._id);
  if (actionData && "askAgain" in actionData) {
    const { courier = "", trackingNumber = "" } = actionData.values;
    return (
      <section className="confirm-page card">
        <h1>
          Ship order <OrderNumber id={order._id} />
        </h1>
        <p className="confirm-question">
          {`Order #${short} has not been confirmed by phone. Ship it anyway with ${courier}, tracking number ${trackingNumber}?`}
        </p>
        <p className="muted">
          {order.phone
            ? `Cash-on-delivery parcels refused at the door cost the shop both ways: call ${formatPakistaniMobile(order.phone)} first.`
            : "Cash-on-delivery parcels refused at the door cost the shop both ways. This order has no mobile number."}
        </p>
        <Form method="post" className="actions">
          <input type="hidden" name="courier" value={courier} />
          <input type="hidden" name="trackingNumber" value={trackingNumber} />
          <input type="hidden" name="returnTo" value={actionData.values.returnTo ?? returnTo} />
          <input type="hidden" name="shipUnconfirmed" value="true" />
          <button type="submit" className="button">
            Yes, ship it
          </button>
          <Link className="button button--ghost" to={`/admin/orders/${order._id}`}>
            No, go back
          </Link>
        </Form>
      </section>
    );
  }
  const failure = actionData as FormFailure | undefined;
  const errors = failure?.fieldErrors ?? {};
  const value = (name: "courier" | "trackingNumber") => failure?.values[name] ?? order[name] ?? "";
  const alreadyShipped = order.status === "Shipped";
  return (
    <section className="form-page">
      <h1>
        Ship order <OrderNumber id={order._id} />
      </h1>
      <dl className="details card">
        <dt>Customer</dt>
        <dd>{order.user.name}</dd>
        <dt>Mobile Number</dt>
        <dd>{order.phone ? formatPakistaniMobile(order.phone) : "None given"}</dd>
        <dt>Ship to</dt>
        <dd>
          <OrderAddress order={order} />
        </dd>
        <dt>Collect</dt>
        <dd>{order.collectOnDelivery > 0 ? formatRupees(order.collectOnDelivery) : "Nothing: paid in advance"}</dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={order.status} />
        </dd>
        <dt>Confirmation</dt>
        <dd>{confirmationWords(order)}</dd>
      </dl>
      {refusal ? (
        <p className="form-error" role="alert">
          {`This order cannot be shipped: ${refusal}.`}
        </p>
      ) : null}
      <FormError message={failure?.formError} />
      <Form method="post" noValidate className="card">
        <input type="hidden" name="returnTo" value={failure?.values.returnTo ?? returnTo} />
        <SelectField
          name="courier"
          label="Courier"
          error={errors.courier}
          defaultValue={value("courier")}
          placeholder="Choose the courier"
          options={courierNames}
          required
        />
        <Field
          name="trackingNumber"
          label="Tracking Number"
          defaultValue={value("trackingNumber")}
          error={errors.trackingNumber}
          hint="4 to 40 letters, digits and dashes, as the courier wrote it"
          required
          maxLength={trackingNumberRuleOf(value("courier") || undefined).maxLength}
        />
        <div className="actions">
          <button type="submit" className="button">
            {alreadyShipped ? "Save" : "Mark as Shipped"}
          </button>
          <Link className="button button--ghost" to={returnTo}>
            Cancel
          </Link>
        </div>
      </Form>
    </section>
  );
}

/** How the order came to be confirmed, in the admin's words: by whom and through which channel. */
function confirmationWords(order: Route.ComponentProps["loaderData"]["order"]): string {
  if (paymentMethodNamed(order.paymentMethod).paidBeforeShipping) {
    return order.readyToShip ? "Confirmed by its payment, verified" : "Waiting for its payment to be verified";
  }
  const { confirmation } = order;
  if (confirmation.status === "confirmed") {
    if (confirmation.by === "admin") return `Confirmed by phone by ${order.confirmedBy ?? "an admin"}`;
    return `Confirmed by the customer ${CHANNEL_WORDS[confirmation.channel ?? "link"]}`;
  }
  if (confirmation.status === "cancelled") return "Cancelled by the customer";
  return "Not confirmed yet";
}

const CHANNEL_WORDS = {
  whatsapp: "on WhatsApp",
  sms: "by SMS",
  link: "through the link in their message",
  phone: "by phone",
} as const;
