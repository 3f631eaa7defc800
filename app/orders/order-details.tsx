import { Link, data, redirect } from "react-router";
import { SCREENSHOT_FIELD } from "../../server/modules/orders/order-values.shared";
import { RETURN_WINDOW_DAYS } from "../../server/modules/orders/return-values.shared";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import { requestContext } from "../context";
import { requireUser } from "../lib/guards";
import { formFailure, formHeaders } from "../lib/forms";
import { RefundWords, TransferPayment } from "./transfer-payment";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { formatRupees } from "../lib/money";
import {
  CancelOrderLink,
  OrderAddress,
  OrderDiscount,
  OrderItems,
  OrderNumber,
  OrderReturns,
  OrderShipping,
  ParcelTimeline,
  RequestReturnLink,
  StatusBadge,
  deliveryLabel,
  formatOrderDateTime,
} from "./order-display";
import type { Route } from "./+types/order-details";

/**
 * One of the customer's own orders. Anyone else, admins included, gets the 404 page: the
 * admins' view of an order is /admin/orders/{id} (docs/product.md, "Pages and who may see them").
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { services } = context.get(requestContext);
  const order = await foundOr404(services.orders.getOrder({ _id: user._id, role: "customer" }, params.orderId));
  // Cancel while allowed (docs/product.md, "Cancelling an order"); "Request a return" while the
  // order can be returned (docs/product.md, "Returns"), by the rule My Orders uses.
  // A Pending order the customer can no longer cancel says why (handed to the courier, too late).
  const cancelRefusal =
    order.status === "Pending" && !order.actions.cancel
      ? await services.orders.refusal(order._id, { kind: "cancelled", by: "customer" })
      : null;
  return {
    order,
    cancellable: order.actions.cancel,
    cancelRefusal: cancelRefusal?.message ?? null,
    canReturn: services.orders.returnRefusal(order) === null,
    // A bank transfer's page shows where to send it (docs/product.md, "Paying in advance").
    account: order.payment.status === "on-delivery" ? null : await services.advancePayment.account(),
    photoFormats: order.payment.status === "on-delivery" ? [] : await services.catalog.photoFormats(),
  };
}

/**
 * The transaction reference of a bank transfer, with an optional screenshot (multipart): kept with
 * its message beside the field when refused, and nothing stored.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { services, session, readPhotoForm } = context.get(requestContext);
  // The post may carry a screenshot of up to 10 MB: it is read only once the order is known to be
  // this customer's (AdvancePaymentFlow.submitReference).
  let values: Record<string, string> = {};
  try {
    await services.advancePayment.submitReference(user._id, params.orderId, async () => {
      const form = await readPhotoForm(request, SCREENSHOT_FIELD);
      values = form.fields;
      return { fields: { reference: values.reference }, photos: form.photos };
    });
  } catch (error) {
    const failure = formFailure(error, values, { fallback: "Failed to send the reference" });
    if (failure.init?.status === 404) throw data("Order not found", { status: 404 });
    return failure;
  }
  session.setFlash({
    tone: "success",
    message: "Thank you: we check your transfer and ship your order once it is verified.",
  });
  throw redirect(`/my-orders/${encodeURIComponent(params.orderId)}`, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Order details", noindex: true });

// A refusal that asks to wait (the photo lane full: 503) carries Retry-After.
export const headers = formHeaders;

export default function CustomerOrderDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { order, cancellable, cancelRefusal, canReturn, account, photoFormats } = loaderData;
  return (
    <section className="card order-details">
      <p>
        <Link to="/my-orders">← My Orders</Link>
      </p>
      <header className="page-header">
        <h1>
          Order <OrderNumber id={order._id} />
        </h1>
        <StatusBadge status={order.status} />
      </header>
      <dl className="details">
        <dt>Placed</dt>
        <dd>{formatOrderDateTime(order.createdAt)}</dd>
        <dt>Payment</dt>
        <dd>{`${order.paymentMethod}: ${formatRupees(order.totalPrice)}`}</dd>
        {order.payment.discount ? (
          <>
            <dt>Discount for paying in advance</dt>
            <dd>{`−${formatRupees(order.payment.discount)}`}</dd>
          </>
        ) : null}
        <dt>Mobile Number</dt>
        <dd>{order.phone ? formatPakistaniMobile(order.phone) : "Not given"}</dd>
        <dt>{deliveryLabel(order.status)}</dt>
        <dd>
          <OrderAddress order={order} />
        </dd>
      </dl>
      {order.payment.status !== "on-delivery" ? (
        <TransferPayment order={order} account={account} answer={actionData} photoFormats={photoFormats} />
      ) : order.refund ? (
        <p className="transfer-payment__status">
          <RefundWords refund={order.refund} />
        </p>
      ) : null}
      <OrderShipping order={order} />
      <ParcelTimeline order={order} />
      <h2>Items</h2>
      <OrderItems order={order} />
      <OrderDiscount order={order} />
      <p className="order-card__total">{`Total: ${formatRupees(order.totalPrice)}`}</p>
      {cancellable ? (
        <div className="actions">
          <p>You can cancel this order yourself within 2 hours of ordering, while it is pending.</p>
          <CancelOrderLink order={order} />
        </div>
      ) : cancelRefusal ? (
        <p className="muted">
          {`${cancelRefusal} `}
          <Link to="/contact">Contact us</Link>
        </p>
      ) : null}
      {canReturn ? (
        <div className="actions">
          <p>{`You can return watches of this order within ${RETURN_WINDOW_DAYS} days of delivery.`}</p>
          <RequestReturnLink order={order} />
        </div>
      ) : null}
      <OrderReturns order={order} />
    </section>
  );
}
