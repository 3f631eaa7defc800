import { Form, Link, redirect } from "react-router";
import { lineProblem, lineTotal, type CartLine } from "../../server/modules/cart/cart-lines.shared";
import { ProductImage } from "../components/product-image";
import { SummaryTotals } from "./summary-totals";
import { requestContext } from "../context";
import { flashRefusal, formValues } from "../lib/forms";
import { LOGIN_REASON_CART, requireUser, safeRedirectPath } from "../lib/guards";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import type { Route } from "./+types/cart";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  // A guest sees an invitation to log in here, not a redirect (docs/product.md, "Pages and who may see them").
  if (!user) return { signedIn: false as const };
  // With products deleted since the shopper last looked: told once, then forgotten.
  const { cart, total, removedNames } = await services.cart.readCartPage(user._id);
  const params = new URL(request.url).searchParams;
  const confirm = params.get("confirm");
  const confirmLine =
    confirm === "remove" ? cart.items.find((line) => line.product._id === params.get("productId")) : undefined;
  return {
    signedIn: true as const,
    removedNames,
    items: cart.items,
    total,
    // The confirmation step of remove and clear, shown in place of the buttons (without a dialog).
    confirm:
      confirm === "clear" && cart.items.length > 0 ? ("clear" as const) : confirmLine ? ("remove" as const) : null,
    confirmProductId: confirmLine?.product._id ?? null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, services, session } = context.get(requestContext);
  const values = formValues(await request.formData());
  const returnTo = safeRedirectPath(values.returnTo, "/products");
  if (values.intent === "add" && !user) {
    // Back to the page they were on after logging in; nothing is added for them unasked. The
    // log-in page says why they are there (docs/product.md, "Pages and who may see them").
    throw redirect(`/login?${new URLSearchParams({ redirectTo: returnTo, reason: LOGIN_REASON_CART })}`, 303);
  }
  const shopper = requireUser(context, request);
  const after = values.intent === "add" && values.then !== "cart" ? returnTo : "/cart";
  try {
    switch (values.intent) {
      case "add": {
        const { cart } = await services.cart.addItem(shopper._id, values);
        const name = cart.items.find((line) => line.product._id === values.productId)?.product.name ?? "Item";
        if (values.then !== "cart") session.setFlash({ tone: "success", message: `${name} added to your cart` });
        break;
      }
      case "set":
        await services.cart.setQuantity(shopper._id, values);
        break;
      case "remove":
        await services.cart.removeItem(shopper._id, values.productId ?? "");
        session.setFlash({ tone: "success", message: "Item removed from your cart" });
        break;
      case "clear":
        await services.cart.clear(shopper._id);
        session.setFlash({ tone: "success", message: "Your cart has been cleared" });
        break;
      default:
        throw new Response("Unknown cart action", { status: 400 });
    }
  } catch (error) {
    // The shopper's cart is unchanged; the message tells them why on the page they return to.
    flashRefusal(session, error, "Failed to update your cart");
  }
  throw redirect(after, 303);
}

export const meta: Route.MetaFunction = routeMeta({ title: "Your Cart", path: "/cart", noindex: true });

export default function Cart({ loaderData }: Route.ComponentProps) {
  if (!loaderData.signedIn) {
    return (
      <section className="empty-state card">
        <h1>Your Cart</h1>
        <p>Please login to view your cart</p>
        <Link className="button" to="/login?redirectTo=%2Fcart">
          Login
        </Link>
      </section>
    );
  }
  const { items, total, confirm, confirmProductId, removedNames } = loaderData;
  const removedNotice =
    removedNames.length > 0 ? (
      <p className="alert alert--info" role="status">
        {`${removedNames.join(", ")} ${removedNames.length === 1 ? "is" : "are"} no longer available and ${removedNames.length === 1 ? "was" : "were"} removed from your cart.`}
      </p>
    ) : null;
  if (items.length === 0) {
    return (
      <section className="empty-state card">
        {removedNotice}
        <h1>Your Cart</h1>
        <p>Your cart is empty</p>
        <Link className="button" to="/products">
          Browse Watches
        </Link>
      </section>
    );
  }
  const blocked = items.some((line) => lineProblem(line) !== null);
  return (
    <section>
      {removedNotice}
      <h1>Your Cart</h1>
      <div className="cart">
        <ul className="cart__lines">
          {items.map((line) => (
            <CartLineRow
              key={line.product._id}
              line={line}
              confirming={confirm === "remove" && confirmProductId === line.product._id}
            />
          ))}
        </ul>
        <aside className="card cart__summary" aria-labelledby="order-summary">
          <h2 id="order-summary">Order Summary</h2>
          <SummaryTotals total={total} />
          {blocked ? (
            <p className="alert alert--error">Please fix the items marked above before checking out.</p>
          ) : (
            <Link className="button button--block" to="/checkout">
              Proceed to Checkout
            </Link>
          )}
          {confirm === "clear" ? (
            <Form method="post" className="confirm-inline" role="alertdialog" aria-labelledby="confirm-clear">
              <p id="confirm-clear" className="confirm-question">
                Are you sure you want to clear your cart?
              </p>
              <input type="hidden" name="intent" value="clear" />
              <div className="actions">
                <button type="submit" className="button button--danger">
                  Yes, clear cart
                </button>
                <Link className="button button--ghost" to="/cart" preventScrollReset>
                  Cancel
                </Link>
              </div>
            </Form>
          ) : (
            <Link className="button button--ghost button--block" to="/cart?confirm=clear" preventScrollReset>
              Clear Cart
            </Link>
          )}
        </aside>
      </div>
    </section>
  );
}

function CartLineRow({ line, confirming }: { line: CartLine; confirming: boolean }) {
  const { product, quantity } = line;
  const problem = lineProblem(line);
  return (
    <li className="cart-line card">
      <ProductImage src={product.imageUrl} images={product.images} alt={product.name} size={96} eager />
      <div className="cart-line__info">
        <Link to={`/products/${product._id}`} className="cart-line__name">
          {product.name}
        </Link>
        <span>{`${formatRupees(product.price)} each`}</span>
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
      </div>
      {/* The stepper: − and + are submit buttons carrying the new quantity, so they work without JavaScript. */}
      <Form method="post" className="cart-line__stepper" preventScrollReset aria-label={`Quantity of ${product.name}`}>
        <input type="hidden" name="intent" value="set" />
        <input type="hidden" name="productId" value={product._id} />
        <button
          type="submit"
          name="quantity"
          value={quantity - 1}
          className="button button--ghost button--small"
          disabled={quantity <= 1}
          aria-label={`Decrease quantity of ${product.name}`}
        >
          −
        </button>
        <output aria-live="polite">{quantity}</output>
        <button
          type="submit"
          name="quantity"
          value={quantity + 1}
          className="button button--ghost button--small"
          disabled={quantity >= product.stock}
          aria-label={`Increase quantity of ${product.name}`}
        >
          +
        </button>
      </Form>
      <span className="cart-line__total">{formatRupees(lineTotal(line))}</span>
      {confirming ? (
        <Form
          method="post"
          className="confirm-inline"
          preventScrollReset
          role="alertdialog"
          aria-label="Confirm removal"
        >
          <p className="confirm-question">Are you sure you want to remove this item?</p>
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="productId" value={product._id} />
          <div className="actions">
            <button type="submit" className="button button--danger button--small">
              Yes, remove
            </button>
            <Link className="button button--ghost button--small" to="/cart" preventScrollReset>
              Cancel
            </Link>
          </div>
        </Form>
      ) : (
        <Link
          className="button button--ghost button--small"
          to={`/cart?confirm=remove&productId=${product._id}`}
          preventScrollReset
          aria-label={`Remove ${product.name}`}
        >
          Remove
        </Link>
      )}
    </li>
  );
}
