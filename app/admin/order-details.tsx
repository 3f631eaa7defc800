import { Link, data, redirect } from "react-router";
import { DomainError, InvalidInputError, NotFoundError, statusOf } from "../../server/modules/shared/errors.shared";
import { flashRefusal, formFailure, formValues } from "../lib/forms";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { OrderNumber } from "../orders/order-display";
import { AdminOrderRefund } from "./order-refund";
import { OrderDetailsBody } from "./order-details-body";
import { OrderTexts } from "./order-texts";
import { CourierBookingPanel, type BookingFailure } from "./courier-booking";
import type { Route } from "./+types/order-details";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  const order = await foundOr404(services.orderDesk.getDeskOrder(params.orderId));
  const { texts, replies } = await services.orderDesk.orderTexts(order._id);
  const couriers = services.shipping.couriers;
  const booking = couriers.length > 0 ? await services.courierPapers.bookingOf(order._id) : null;
  return { order, texts, replies, couriers, booking };
}

/**
 * "Send again": the confirmation text once more (a few times per order at most); a bank transfer's
 * payment verified or rejected. Answered by a redirect with what happened.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  if (values.intent === "book") return bookWithCourier(context, params.orderId, values, admin);
  if (values.intent === "record-refund") {
    // How a cancelled order's money went back (the same call as POST /api/v1/orders/{id}/refund).
    try {
      await services.fulfilment.recordRefund(params.orderId, values, admin);
    } catch (error) {
      if (error instanceof NotFoundError) throw data(error.message, { status: 404 });
      return formFailure(error, values, { fallback: "Failed to record the refund" });
    }
    session.setFlash({ tone: "success", message: "Refund recorded." });
    throw redirect(`/admin/orders/${encodeURIComponent(params.orderId)}`, 303);
  }
  if (values.intent === "cancel-booking") {
    try {
      await services.shipping.cancel(params.orderId);
      session.setFlash({ tone: "success", message: "Booking cancelled: the order can be booked again." });
    } catch (error) {
      if (error instanceof NotFoundError) throw data(error.message, { status: 404 });
      if (!(error instanceof DomainError)) throw error;
      session.setFlash({ tone: "error", message: `The booking was not cancelled: ${error.message}` });
    }
  } else if (values.intent === "send-again") {
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
  // The id as it came, encoded: a hostile one must not break the Location header (tests/integration/hostile-input-pages.test.ts).
  throw redirect(`/admin/orders/${encodeURIComponent(params.orderId)}`, 303);
}

/**
 * "Book with …" (the same flow as POST /api/v1/orders/{id}/shipment): booked, a redirect with the
 * tracking number; refused, not answered or a city to choose, this page again with the courier's
 * words or the courier's cities, the order unchanged.
 */
async function bookWithCourier(
  context: Route.ActionArgs["context"],
  orderId: string,
  values: Record<string, string>,
  admin: { name: string },
) {
  const { services, session } = context.get(requestContext);
  // The first press sends no city (the order's own is matched); the list's choice sends one.
  const input = { courier: values.courier, ...(values.city === undefined ? {} : { city: values.city }) };
  try {
    const order = await services.shipping.book(orderId, input, admin);
    session.setFlash({
      tone: "success",
      message: `Booked with ${order.courier}: tracking number ${order.trackingNumber}`,
    });
  } catch (error) {
    if (error instanceof NotFoundError) throw data(error.message, { status: 404 });
    if (!(error instanceof DomainError)) throw error;
    const cityError =
      error instanceof InvalidInputError ? (error.errors.find((e) => e.field === "city")?.message ?? null) : null;
    // The list again whenever a city was at stake (to choose, or chosen and then refused), the
    // choice kept; it comes from the kept copy (a day), so it costs no call to the courier.
    const cities =
      cityError || values.city !== undefined
        ? await services.shipping.cities(values.courier ?? "").then(
            (list) => list.map((city) => city.name),
            // A courier not answering for its list: its words are the message, without the list.
            (listError: unknown) => {
              if (listError instanceof DomainError) return [];
              throw listError;
            },
          )
        : [];
    const booking: BookingFailure["booking"] = {
      courier: values.courier ?? "",
      message: cityError ? null : error.message,
      cityError,
      cities,
      city: values.city ?? "",
    };
    return data<BookingFailure>({ booking }, { status: statusOf(error) });
  }
  throw redirect(`/admin/orders/${encodeURIComponent(orderId)}`, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Order Details", noindex: true });

/** An order's details for the admin (a page of its own: docs/product.md, "Pages and who may see them"). */
export default function AdminOrderDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { order, texts, replies, couriers, booking } = loaderData;
  const failure = actionData && "booking" in actionData ? actionData.booking : null;
  const refundFailure =
    actionData && "fieldErrors" in actionData && actionData.values.intent === "record-refund" ? actionData : null;
  return (
    <section className="card order-details">
      <p>
        <Link to="/admin/orders">← Back to Orders</Link>
      </p>
      <h1>
        Order <OrderNumber id={order._id} />
      </h1>
      <OrderDetailsBody order={order} />
      <AdminOrderRefund order={order} failure={refundFailure} />
      <CourierBookingPanel order={order} couriers={couriers} booking={booking} failure={failure} />
      <OrderTexts order={order} texts={texts} replies={replies} />
    </section>
  );
}
