import { requestContext } from "../context";
import { requireAdmin } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { foundOr404 } from "../lib/not-found";
import { PackingSlip, SlipToolbar, paperFromUrl, printableHandle } from "./packing-slip";
import { trackingBarcodeSvg } from "./tracking-barcode.server";
import type { Route } from "./+types/order-slip";

/** One order's packing slip (docs/product.md, "Packing slips"). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { services, store } = context.get(requestContext);
  const order = await foundOr404(services.orders.getOrder(admin, params.orderId));
  return {
    order,
    store,
    paper: paperFromUrl(new URL(request.url).searchParams),
    barcodeSvg: trackingBarcodeSvg(order.trackingNumber),
  };
}

export const handle = printableHandle;

export const meta: Route.MetaFunction = routeMeta({ title: "Packing Slip", noindex: true });

export default function OrderSlip({ loaderData }: Route.ComponentProps) {
  const { order, store, paper, barcodeSvg } = loaderData;
  return (
    <div className={`slips slips--${paper}`}>
      <SlipToolbar
        title="Packing slip"
        paper={paper}
        paperHref={(choice) => `/admin/orders/${order._id}/slip?paper=${choice}`}
        backTo={`/admin/orders/${order._id}`}
      />
      <PackingSlip order={order} store={store} barcodeSvg={barcodeSvg} />
    </div>
  );
}
