import { NotFoundError } from "../../server/modules/shared/errors.shared";
import { requestContext } from "../context";
import type { Route } from "./+types/payment-screenshot";

/**
 * /orders/{id}/payment-screenshot (`?size=thumbnail` for the small one): the customer's screenshot
 * of a bank transfer, which shows their bank, account and balance
 * (docs/decisions/2026-11-26-advance-payment.md). Only the order's owner and admins get it; anyone
 * else, a guest included, the same 404 as for an order that does not exist, with no sign-in
 * redirect that would tell them it does. Never stored by a cache, the browser's included.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { services, user } = context.get(requestContext);
  const size = new URL(request.url).searchParams.get("size") === "thumbnail" ? "thumbnail" : "full";
  try {
    const bytes = await services.advancePayment.screenshot(user, params.orderId, size);
    return new Response(new Uint8Array(bytes), {
      headers: {
        "Content-Type": "image/webp",
        "Cache-Control": "private, no-store",
        "Content-Disposition": "inline",
      },
    });
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new Response("Not found", {
        status: 404,
        headers: { "Content-Type": "text/plain", "Cache-Control": "private, no-store" },
      });
    }
    throw error;
  }
}
