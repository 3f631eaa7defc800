import { Link } from "react-router";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import { paymentMethodNamed } from "../../server/providers/payment-methods/payment-methods.shared";
import { requestContext } from "../context";
import { requireUser } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { formatRupees } from "../lib/money";
import { SummaryTotals } from "../cart/summary-totals";
import { OrderAddress, OrderItems, OrderNumber, OrderReturns, deliveryLabel } from "./order-display";
import { TransferAccount } from "./transfer-payment";
import type { Route } from "./+types/order-success";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { services } = context.get(requestContext);
  // Another customer's order does not exist for this shopper (docs/product.md, "Pages and who may see them").
  const order = await foundOr404(services.orders.getOrder(user, params.orderId));
  // An order paid in advance shows where to send it, right below (docs/product.md, "Paying in advance").
  const advance = paymentMethodNamed(order.paymentMethod).paidBeforeShipping;
  return { order, account: advance && order.amountDue > 0 ? await services.advancePayment.account() : null };
}

export const meta: Route.MetaFunction = routeMeta({ title: "Order Placed", noindex: true });

export default function OrderSuccess({ loaderData }: Route.ComponentProps) {
  const { order, account } = loaderData;
  const method = paymentMethodNamed(order.paymentMethod);
  return (
    <section className="card order-success">
      <h1>Order Placed Successfully!</h1>
      <p>
        Thank you for shopping with us. Your order number is <OrderNumber id={order._id} />.
      </p>
      <p className="muted">{`Full order id: ${order._id}`}</p>
      <h2>What happens next</h2>
      <ul>
        <li>
          {/* An order paid in advance is confirmed by its payment, never by a call (docs/product.md, "An order's life"). */}
          {method.paidBeforeShipping
            ? "As soon as your payment reaches us, we pack your watch with its certificate of authenticity and warranty card."
            : order.phone
              ? `We call you on ${formatPakistaniMobile(order.phone)} to confirm your order, then pack your watch with its certificate of authenticity and warranty card.`
              : "We confirm your order and pack your watch with its certificate of authenticity and warranty card."}
        </li>
        <li>Once it is with the courier, My Orders shows the courier and the tracking number.</li>
        <li>
          Delivery takes 3-5 business days to major cities and 5-7 business days to other areas; shipping is free.
        </li>
        <li>
          {order.amountDue > 0
            ? method.nextStep(formatRupees(order.amountDue))
            : "Your payment is received: there is nothing to pay."}
        </li>
        <li>{`We have emailed this confirmation to ${order.user.email}.`}</li>
        <li>Changed your mind? You can cancel the order yourself under My Orders within 2 hours.</li>
      </ul>
      {account ? <TransferAccount order={order} account={account} /> : null}
      <h2>Your order</h2>
      <OrderItems order={order} />
      <SummaryTotals total={order.totalPrice} subtotal={order.subtotal} discount={order.discount} />
      <OrderReturns order={order} />
      {/* A <div>, not a <p>: an <address> may not sit in a paragraph (the browser would split it). */}
      <div className="order-delivery">
        {`${deliveryLabel(order.status)}: `}
        <OrderAddress order={order} />
      </div>
      <div className="actions">
        <Link className="button" to="/my-orders">
          View My Orders
        </Link>
        <Link className="button button--ghost" to="/products">
          Continue Shopping
        </Link>
      </div>
    </section>
  );
}
