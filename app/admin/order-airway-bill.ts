import { redirect } from "react-router";
import { DomainError, NotFoundError } from "../../server/modules/shared/errors.shared";
import { shortOrderId } from "../../server/modules/orders/order-values.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import type { Route } from "./+types/order-airway-bill";

/**
 * /admin/orders/{id}/airway-bill, admins only: the booked parcel's airway bill. PostEx's invoice
 * PDF is fetched by the store with its token and served from here, so the token never reaches
 * the browser or a URL; Leopards' is its slip link, where this redirects. A refusal or no answer
 * goes back to the order's page with the courier's words.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services, session } = context.get(requestContext);
  const orderPage = `/admin/orders/${encodeURIComponent(params.orderId)}`;
  try {
    const bill = await services.courierPapers.airwayBill(params.orderId);
    if (bill.kind === "link") throw redirect(bill.url, 302);
    return new Response(new Uint8Array(bill.body), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="airway-bill-${shortOrderId(params.orderId)}.pdf"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof NotFoundError) throw new Response(error.message, { status: 404 });
    if (!(error instanceof DomainError)) throw error;
    session.setFlash({ tone: "error", message: `No airway bill: ${error.message}` });
    throw redirect(orderPage, 303);
  }
}
