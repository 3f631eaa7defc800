import { Form } from "react-router";
import type { DeskOrder } from "../../server/modules/order-life/order-desk";
import type { BookingView } from "../../server/flows/courier-papers";
import { FormError } from "../lib/forms";

/** What a failed booking from the order's page answers: the courier's words, and the city list when the city did not match. */
export type BookingFailure = {
  booking: {
    courier: string;
    message: string | null;
    cityError: string | null;
    cities: string[];
    city: string;
  };
};

/**
 * Booking the order's parcel with a courier's API from its page (docs/product.md, "Couriers
 * through their APIs"): a button a courier that is on, for a confirmed Pending order; the
 * courier's refusal beside them with "Try again"; the courier's cities to choose from when the
 * order's city is not one of them, on the same page (a plain <select>, no JavaScript needed).
 * A booked order shows its courier, tracking number, airway bill and, before pickup, "Cancel
 * booking". Nothing at all when no courier is on.
 */
export function CourierBookingPanel({
  order,
  couriers,
  booking,
  failure,
}: {
  order: DeskOrder;
  couriers: { id: string; name: string }[];
  booking: BookingView | null;
  failure: BookingFailure["booking"] | null;
}) {
  if (couriers.length === 0) return null;
  if (booking?.state === "booked") {
    return (
      <section className="courier-booking" aria-labelledby="courier-booking-title">
        <h2 id="courier-booking-title">Courier booking</h2>
        <p>{`Booked with ${booking.courier}: tracking number ${booking.trackingNumber}`}</p>
        <div className="actions">
          <a className="button button--ghost" href={`/admin/orders/${order._id}/airway-bill`}>
            Print airway bill
          </a>
          {order.status === "Pending" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="cancel-booking" />
              <button type="submit" className="button button--ghost">
                Cancel booking
              </button>
            </Form>
          ) : null}
        </div>
      </section>
    );
  }
  if (order.status !== "Pending") return null;
  if (booking?.state === "booking") {
    return (
      <section className="courier-booking" aria-labelledby="courier-booking-title">
        <h2 id="courier-booking-title">Courier booking</h2>
        <p>{`A booking with ${booking.courier} is under way: reload the page for its answer.`}</p>
      </section>
    );
  }
  if (!order.confirmedAt) {
    return (
      <section className="courier-booking" aria-labelledby="courier-booking-title">
        <h2 id="courier-booking-title">Courier booking</h2>
        <p className="muted">Confirm the order by phone before booking a courier.</p>
      </section>
    );
  }
  // A booking in doubt may be tried again only with its courier, which is asked first whether it booked.
  const offered = booking?.state === "in-doubt" ? couriers.filter((c) => c.name === booking.courier) : couriers;
  const lastError = booking && (booking.state === "refused" || booking.state === "in-doubt") ? booking : null;
  const message = failure ? failure.message : lastError ? lastAttemptMessage(lastError) : null;
  // "Try again" after a refusal or no answer; a city still to choose is a first try.
  const failedCourier = failure
    ? failure.message
      ? couriers.find((c) => c.id === failure.courier)?.name
      : undefined
    : lastError?.courier;
  return (
    <section className="courier-booking" aria-labelledby="courier-booking-title">
      <h2 id="courier-booking-title">Courier booking</h2>
      <FormError message={message ?? undefined} />
      <div className="actions">
        {offered.map((courier) => {
          const choosing = failure?.courier === courier.id && failure.cities.length > 0 ? failure : null;
          return (
            <Form method="post" key={courier.id} className="courier-booking__form">
              <input type="hidden" name="intent" value="book" />
              <input type="hidden" name="courier" value={courier.id} />
              {choosing ? (
                <div className="field">
                  <label htmlFor={`field-city-${courier.id}`}>{`City on the ${courier.name} list`}</label>
                  <select
                    id={`field-city-${courier.id}`}
                    name="city"
                    defaultValue={choosing.city}
                    aria-invalid={choosing.cityError ? true : undefined}
                    aria-describedby={choosing.cityError ? `field-city-${courier.id}-error` : undefined}
                  >
                    <option value="">Choose the city</option>
                    {choosing.cities.map((city) => (
                      <option key={city} value={city}>
                        {city}
                      </option>
                    ))}
                  </select>
                  {choosing.cityError ? (
                    <p className="field-error" id={`field-city-${courier.id}-error`} role="alert">
                      {choosing.cityError}
                    </p>
                  ) : null}
                </div>
              ) : null}
              <button type="submit" className="button">
                {failedCourier === courier.name ? `Try again with ${courier.name}` : `Book with ${courier.name}`}
              </button>
            </Form>
          );
        })}
      </div>
    </section>
  );
}

/** The last attempt's failure, as the booking's answer said it when it happened (server/flows/shipping.ts). */
function lastAttemptMessage(booking: BookingView): string {
  if (booking.state === "refused") return `${booking.courier} refused: ${booking.error ?? "no reason given"}`;
  return `${booking.error ?? `${booking.courier} did not answer`}: the booking is in doubt. Try again: the store first asks ${booking.courier} whether it booked the parcel.`;
}
