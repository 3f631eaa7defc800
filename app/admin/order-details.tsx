import { Link, data, redirect } from "react-router";
import { NotFoundError } from "../../server/modules/shared/errors.shared";
import { flashRefusal, formValues } from "../lib/forms";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { OrderNumber } from "../orders/order-display";
import { OrderDetailsBody } from "./order-details-body";
import { OrderTexts } from "./order-texts";
import type { Route } from "./+types/order-details";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const order = await foundOr404(services.orderDesk.getDeskOrder(params.orderId));
  const { texts, replies } = await services.orderDesk.orderTexts(order._id);
  return { order, texts, replies };
}

/**
 * "Send again": the confirmation text once more (a few times per order at most); a bank transfer's
 * payment verified or rejected. Answered by a redirect with what happened.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  if (values.intent === "send-again") {
    try {
      await services.orderConfirmation.sendAgain(params.orderId);
      session.setFlash({ tone: "success", message: "The confirmation was sent again." });
    } catch (error) {
      if (error instanceof NotFoundError) throw data(error.message, { status: 404 });
      flashRefusal(session, error, "Failed to send the confirmation again");
    }
  } else if (values.intent === "payment-verified" || values.intent === "payment-rejected") {
    // The admin's verdict on a bank transfer (docs/product.md, "Paying in advance").
    const status = values.intent === "payment-verified" ? "verified" : "rejected";
    try {
      await services.advancePayment.review(params.orderId, { status, reason: values.reason });
      session.setFlash({
        tone: "success",
        message:
          status === "verified"
            ? "Payment verified: the order may ship."
            : "Payment rejected: the customer was told why.",
      });
    } catch (error) {
      if (error instanceof NotFoundError) throw data(error.message, { status: 404 });
      flashRefusal(session, error, "Failed to update the payment");
    }
  } else {
    session.setFlash({ tone: "error", message: "Something went wrong" });
  }
  // The id as it came, encoded: a hostile one must not break the Location header (tests/integration/hostile-input.test.ts).
  throw redirect(`/admin/orders/${encodeURIComponent(params.orderId)}`, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Order Details", noindex: true });

/** An order's details for the admin (a page of its own: docs/product.md, "Pages and who may see them"). */
export default function AdminOrderDetails({ loaderData }: Route.ComponentProps) {
  const { order, texts, replies } = loaderData;
  return (
    <section className="card order-details">
      <p>
        <Link to="/admin/orders">← Back to Orders</Link>
      </p>
      <h1>
        Order <OrderNumber id={order._id} />
      </h1>
      <OrderDetailsBody order={order} />
      <OrderTexts order={order} texts={texts} replies={replies} />
    </section>
  );
}
