import { Form, Link, data, redirect, useNavigation } from "react-router";
import { NotFoundError } from "../../server/modules/shared/errors.shared";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import { requestContext } from "../context";
import { FormError, formFailure } from "../lib/forms";
import { requireUser } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { formatRupees } from "../lib/money";
import { OrderItems, OrderNumber } from "./order-display";
import type { Route } from "./+types/order-cancel";

/** The confirmation step before a customer cancels their own order (docs/product.md, "Cancelling an order"). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { services } = context.get(requestContext);
  const order = await foundOr404(services.orders.getOrder({ _id: user._id, role: "customer" }, params.orderId));
  // The order's life says whether the customer may cancel it, and why not (docs/product.md, "An order's life").
  const refusal = order.actions.cancel
    ? null
    : await services.orders.refusal(order._id, { kind: "cancelled", by: "customer" });
  return { order, reason: refusal?.message ?? null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { services, session } = context.get(requestContext);
  try {
    const order = await services.cancellation.cancelOwnOrder(user._id, params.orderId);
    session.setFlash({ tone: "success", message: `Order #${shortOrderId(order._id)} was cancelled.` });
  } catch (error) {
    // Someone else's order: the 404 page. Too late, or no longer pending: said here (409).
    if (error instanceof NotFoundError) throw data(error.message, { status: 404 });
    return formFailure(error, {});
  }
  throw redirect(`/my-orders/${params.orderId}`, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Cancel order", noindex: true });

export default function CancelOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, reason } = loaderData;
  const navigation = useNavigation();
  const refusal = actionData?.formError ?? reason;
  return (
    <section className="card form-page">
      <h1>
        Cancel order <OrderNumber id={order._id} />
      </h1>
      {refusal ? (
        <>
          <FormError message={refusal} />
          <p>
            Need help with this order? <Link to="/contact">Contact us</Link> with its number.
          </p>
          <Link className="button button--ghost" to={`/my-orders/${order._id}`}>
            Back to the order
          </Link>
        </>
      ) : (
        <>
          <p>
            {`Are you sure you want to cancel order #${shortOrderId(order._id)} (${formatRupees(order.totalPrice)})? `}
            {order.payment.status === "verified"
              ? `Nothing will be sent, and the ${formatRupees(order.payment.verifiedAmount ?? order.totalPrice)} you paid will be refunded to you.`
              : "Nothing will be sent and there is nothing to pay."}
          </p>
          <OrderItems order={order} />
          <Form method="post" className="actions">
            <button type="submit" className="button button--danger" disabled={navigation.state === "submitting"}>
              {navigation.state === "submitting" ? "Cancelling..." : "Yes, cancel order"}
            </button>
            <Link className="button button--ghost" to={`/my-orders/${order._id}`}>
              Keep my order
            </Link>
          </Form>
        </>
      )}
    </section>
  );
}
