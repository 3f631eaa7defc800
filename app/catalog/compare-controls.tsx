import { Form, useLocation } from "react-router";
import { COMPARE_FORM_ID } from "../../server/modules/catalog/comparison-values.shared";

/**
 * The Compare button on a card or a product page. It submits the one compare form of the page
 * (app/root.tsx) by its `form` attribute, so a grid of cards does not carry a form each.
 */
export function CompareButton({ productId, productName }: { productId: string; productName: string }) {
  return (
    <button
      type="submit"
      form={COMPARE_FORM_ID}
      name="productId"
      value={productId}
      className="link-button compare-button"
    >
      Compare<span className="visually-hidden">{` ${productName}`}</span>
    </button>
  );
}

/** The one form every Compare button submits: it adds the pressed watch and comes back here. */
export function CompareForm() {
  const location = useLocation();
  return (
    <Form id={COMPARE_FORM_ID} method="post" action="/compare" preventScrollReset hidden>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
    </Form>
  );
}
