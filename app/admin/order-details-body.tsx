import { Link, useLocation } from "react-router";
import { formatStoreDateTime } from "../../server/modules/shared/store-dates.shared";
import type { DeskOrder } from "../../server/modules/order-life/order-desk";
import { formatPakistaniMobile } from "../../server/modules/shared/phone.shared";
import { formatRupees } from "../lib/money";
import { OrderAddress, OrderItems, ParcelTimeline, ReturnStatusBadge, StatusBadge } from "../orders/order-display";
import { TrackingNumber } from "../orders/tracking-number";
import { CustomerRecord, OrderConfirmation } from "./order-confirmation";
import { AdminOrderPayment } from "./order-payment";
import { OrderStatusForm, shipOrderPath } from "./order-status-form";

/** An order's details for the admin: on its own page, or in the list's dialog with JavaScript. */
export function OrderDetailsBody({ order }: { order: DeskOrder }) {
  const location = useLocation();
  return (
    <>
      <dl className="details">
        <dt>Order id</dt>
        <dd>{order._id}</dd>
        <dt>Placed</dt>
        <dd>{formatStoreDateTime(order.createdAt)}</dd>
        <dt>Customer</dt>
        <dd>{`${order.user.name} (${order.user.email})`}</dd>
        <dt>Customer&apos;s record</dt>
        <dd>
          <CustomerRecord order={order} />
        </dd>
        <dt>Mobile Number</dt>
        <dd>{order.phone ? <a href={`tel:${order.phone}`}>{formatPakistaniMobile(order.phone)}</a> : "None given"}</dd>
        <dt>Ship to</dt>
        <dd>
          <OrderAddress order={order} />
        </dd>
        <dt>Payment</dt>
        <dd>
          <AdminOrderPayment order={order} />
        </dd>
        {order.payment.discount ? (
          <>
            <dt>Discount for paying in advance</dt>
            <dd>{`−${formatRupees(order.payment.discount)}`}</dd>
          </>
        ) : null}
        {order.discount ? (
          <>
            <dt>Subtotal</dt>
            <dd>{formatRupees(order.subtotal)}</dd>
            <dt>{`Discount (${order.discount.code})`}</dt>
            <dd>{`−${formatRupees(order.discount.amount)}`}</dd>
          </>
        ) : null}
        <dt>Total</dt>
        <dd>{formatRupees(order.totalPrice)}</dd>
        <dt>Confirmation</dt>
        <dd>
          <OrderConfirmation order={order} />
        </dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={order.status} />
          <OrderStatusForm orderId={order._id} status={order.status} place="details" />
        </dd>
        {order.outcome ? (
          <>
            <dt>Parcel</dt>
            <dd className="order-outcome">
              {`Returned to sender (${order.outcome.reason}), ${formatStoreDateTime(order.outcome.at)}. `}
              {order.outcome.receivedBackAt ? (
                `Received back ${formatStoreDateTime(order.outcome.receivedBackAt)}.`
              ) : (
                <Link to={`/admin/orders/${order._id}/outcome`}>Mark received back</Link>
              )}
            </dd>
          </>
        ) : order.status === "Shipped" ? (
          <>
            <dt>Parcel</dt>
            <dd>
              <Link to={`/admin/orders/${order._id}/outcome`}>Returned to sender…</Link>
            </dd>
          </>
        ) : null}
        {order.deliveredAt ? (
          <>
            <dt>Delivered</dt>
            <dd>{formatStoreDateTime(order.deliveredAt)}</dd>
          </>
        ) : null}
        <dt>Courier</dt>
        <dd>{order.courier ?? "Not shipped yet"}</dd>
        <dt>Tracking number</dt>
        <dd>
          {order.trackingNumber ? (
            <TrackingNumber courier={order.courier} trackingNumber={order.trackingNumber} />
          ) : (
            "Not shipped yet"
          )}
          {order.status === "Shipped" ? (
            <>
              {" "}
              <Link to={shipOrderPath(order._id, location.pathname + location.search)}>
                Change courier or tracking number
              </Link>
            </>
          ) : null}
        </dd>
      </dl>
      <ParcelTimeline order={order} />
      <h2>Items</h2>
      <OrderItems order={order} />
      {order.returns.length > 0 ? (
        <>
          <h2>Returns</h2>
          <ul className="link-list">
            {order.returns.map((orderReturn) => (
              <li key={orderReturn._id}>
                <Link to={`/admin/returns/${orderReturn._id}`}>
                  {`${formatStoreDateTime(orderReturn.createdAt)}: ${orderReturn.items
                    .map((item) => `${item.quantity} × ${item.product.name}`)
                    .join(", ")}`}
                </Link>{" "}
                <ReturnStatusBadge status={orderReturn.status} />
                {/* What goes back to the customer: refunded once received, owed while on its way. */}
                <span className="order-return__refund">
                  {orderReturn.status === "Rejected"
                    ? " No refund"
                    : ` Refund ${formatRupees(orderReturn.refundAmount)}${orderReturn.refund ? ` (paid by ${orderReturn.refund.method})` : ""}`}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p>
        <a className="button button--ghost" href={`/admin/orders/${order._id}/slip`}>
          Print slip
        </a>
      </p>
    </>
  );
}
