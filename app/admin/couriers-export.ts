import { data } from "react-router";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import type { Route } from "./+types/couriers-export";

/**
 * /admin/couriers/export.csv: the couriers page's table as a CSV download (the orders export's
 * rules: server/modules/orders/orders-csv.ts). Private: never kept by a cache.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services } = context.get(requestContext);
  if (services.courierLedger.couriers.length === 0) {
    throw data("No courier is booked through its API in this store", { status: 404 });
  }
  const { month, csv } = await services.courierLedger.csv();
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="couriers-${month}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
