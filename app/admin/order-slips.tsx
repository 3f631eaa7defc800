import { data } from "react-router";
import { InvalidInputError } from "../../server/modules/shared/errors.shared";
import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { orderFilterFromUrl, withOrderFilter } from "./order-filter";
import { PackingSlip, SlipToolbar, paperFromUrl, printableHandle } from "./packing-slip";
import { trackingBarcodeSvg } from "./tracking-barcode.server";
import type { Route } from "./+types/order-slips";
import type { PublicOrder } from "../../server/modules/orders/order.shape";

/**
 * The packing slips of the orders the admin list shows for a filter (docs/product.md, "Packing
 * slips"), one a page; Cancelled orders are left out, since nothing is sent for them.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { services, store } = context.get(requestContext);
  const params = new URL(request.url).searchParams;
  const filter = orderFilterFromUrl(params);
  const paper = paperFromUrl(params);
  try {
    const { orders, total } = await services.orderDesk.slipOrders(filter);
    const barcodes = Object.fromEntries(orders.map((order) => [order._id, trackingBarcodeSvg(order.trackingNumber)]));
    return { orders, barcodes, total, filter, paper, store, problem: null as string | null };
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    const none: PublicOrder[] = [];
    const barcodes: Record<string, string | null> = {};
    return data({ orders: none, barcodes, total: 0, filter, paper, store, problem: error.message }, { status: 400 });
  }
}

export const handle = printableHandle;

export const meta: Route.MetaFunction = routeMeta({ title: "Packing Slips", noindex: true });

export default function OrderSlips({ loaderData }: Route.ComponentProps) {
  const { orders, barcodes, total, filter, paper, store, problem } = loaderData;
  const count = orders.length;
  return (
    <div className={`slips slips--${paper}`}>
      <SlipToolbar
        title="Packing slips"
        paper={paper}
        paperHref={(choice) => withOrderFilter("/admin/orders/slips", filter, { paper: choice })}
        backTo={withOrderFilter("/admin/orders", filter)}
      >
        {problem ? (
          <p className="form-error" role="alert">
            {problem}
          </p>
        ) : (
          <p>
            {count === 0
              ? "No orders to send for this filter (cancelled orders are left out)."
              : `${count} ${count === 1 ? "slip" : "slips"}, one a page${total > count ? ` (the newest ${count} of ${total}: narrow the filter for the rest)` : ""}.`}
          </p>
        )}
      </SlipToolbar>
      {orders.map((order) => (
        <PackingSlip key={order._id} order={order} store={store} barcodeSvg={barcodes[order._id]} />
      ))}
    </div>
  );
}
