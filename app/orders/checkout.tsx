import { Form, Link, data, redirect, useNavigation } from "react-router";
import { DISCOUNT_CODE_MAX } from "../../server/modules/discounts/discount-values.shared";
import type { CheckoutQuote } from "../../server/flows/checkout";
import { CodedConflictError, DomainError } from "../../server/modules/shared/errors.shared";
import { COD_REFUSAL_CODES } from "../../server/modules/confirmation/order-rules.shared";
import { advanceDiscount } from "../../server/modules/payments/bank-transfer.shared";
import { countryOrDefault } from "../../server/modules/shared/address.shared";
import { lineTotal } from "../../server/modules/cart/cart-lines.shared";
import {
  PHONE_MESSAGE,
  formatPakistaniMobile,
  normalisePakistaniMobile,
} from "../../server/modules/shared/phone.shared";
import { LANGUAGE_CHOICE } from "../../server/modules/confirmation/confirmation-texts.shared";
import { SummaryTotals } from "../cart/summary-totals";
import { ProductImage } from "../components/product-image";
import { requestContext } from "../context";
import { Field, FormError, formFailure, formHeaders, formValues, type FormFailure } from "../lib/forms";
import { requireUser } from "../lib/guards";
import { requiredOnPage } from "../lib/page-rules.server";
import { routeMeta } from "../lib/meta";
import { formatRupees } from "../lib/money";
import type { Route } from "./+types/checkout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { services } = context.get(requestContext);
  const [{ cart, total }, last, payment] = await Promise.all([
    services.cart.getCart(user._id),
    services.lastDelivery.of(user._id),
    services.checkout.paymentChoice(),
  ]);
  // The address and mobile number of the newest order fill the form, else the profile's
  // (docs/product.md, "Orders"): the shopper is never asked twice. Pakistan unless said otherwise.
  const address = last?.address ?? user.address;
  return {
    items: cart.items,
    total,
    address: { ...address, country: countryOrDefault(address.country) },
    // A phone only when it is a mobile number (an order's always is; a profile's may not be).
    phone: formatPakistaniMobile(last?.phone ?? normalisePakistaniMobile(user.phone)),
    // One key per checkout form: a second submit of this form finds the first order.
    checkoutKey: crypto.randomUUID(),
    // How the order is paid: the methods offered now (PAYMENT_METHODS, a bank transfer only while
    // the store's account is set), the first being the order's unless the shopper picks another.
    paymentMethods: payment.methods.map(({ name, label, checkoutNote, paidBeforeShipping }) => ({
      name,
      label,
      checkoutNote,
      discountPercent: paidBeforeShipping ? payment.discountPercent : null,
    })),
    // The language of the order's confirmation messages: the last choice, else Urdu.
    language: await services.checkout.messageLanguage(user._id),
  };
}

/**
 * What the action answers: the form's problems and values, the summary with the code applied, and
 * whether a cash-on-delivery rule refused the order (then paying in advance is offered for it).
 */
type CheckoutAnswer = FormFailure & { quote: CheckoutQuote | null; codRefused?: boolean };

/** The button a refused cash-on-delivery order offers: the same form, paid by bank transfer. */
const PAY_IN_ADVANCE = "pay-in-advance";

/**
 * Two buttons post this form (told apart by `intent`): Apply recomputes the summary with the
 * discount code and gives every field back; Place Order places the order with it (docs/product.md,
 * "Discount codes"). Without JavaScript both are plain posts.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { services, clientIp } = context.get(requestContext);
  const client = { ip: clientIp };
  const values = formValues(await request.formData());
  const { street, city, state, zipCode, country, phone, checkoutKey, discountCode, language } = values;
  // "Pay in advance by bank transfer", offered when a cash-on-delivery rule refused the order.
  if (values.intent === PAY_IN_ADVANCE) values.paymentMethod = "Bank Transfer";
  const { paymentMethod } = values;
  // Only the discount code is rate limited here (too many codes that are not valid): said beside it.
  const fieldFor = { 429: "discountCode" };
  if (values.intent === "apply") {
    try {
      const quote = await services.checkout.quoteCheckout(user._id, { discountCode }, client);
      return data<CheckoutAnswer>({ fieldErrors: {}, values, quote });
    } catch (error) {
      const failure = formFailure(error, values, { fieldFor });
      return data<CheckoutAnswer>({ ...failure.data, quote: null }, failure.init ?? undefined);
    }
  }
  let orderId: string;
  try {
    // The page requires the mobile number, a courier takes no parcel without it; the API does not
    // (docs/product.md, "Orders").
    const order = await services.checkout.placeOrder(
      user._id,
      requiredOnPage(
        {
          address: { street, city, state, zipCode, country },
          phone,
          idempotencyKey: checkoutKey,
          discountCode,
          language,
          paymentMethod,
        },
        values,
        { phone: PHONE_MESSAGE },
      ),
      { client },
    );
    orderId = order._id;
  } catch (error) {
    const failure = formFailure(error, values, { fallback: "Failed to place your order", fieldFor });
    // The summary keeps the code's discount while the shopper fixes another field.
    const quote =
      discountCode && !failure.data.fieldErrors.discountCode
        ? await services.checkout.quoteCheckout(user._id, { discountCode }, client).catch((refusal: unknown) => {
            if (refusal instanceof DomainError) return null;
            throw refusal;
          })
        : null;
    const codRefused =
      error instanceof CodedConflictError && (COD_REFUSAL_CODES as readonly string[]).includes(error.code);
    return data<CheckoutAnswer>({ ...failure.data, quote, codRefused }, failure.init ?? undefined);
  }
  throw redirect(`/order-success/${orderId}`, 303);
}

// Too many codes tried: 429 with Retry-After, like the API.
export const headers: Route.HeadersFunction = formHeaders;

export const meta: Route.MetaFunction = routeMeta({ title: "Checkout", path: "/checkout", noindex: true });

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, address, phone, checkoutKey, paymentMethods, language } = loaderData;
  const navigation = useNavigation();
  const posting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const applying = posting && navigation.formData?.get("intent") === "apply";
  const processing = posting && !applying;
  if (items.length === 0) {
    return (
      <section className="empty-state card">
        <h1>Checkout</h1>
        <p>Your cart is empty</p>
        <Link className="button" to="/products">
          Browse Watches
        </Link>
      </section>
    );
  }
  const errors = actionData?.fieldErrors ?? {};
  // After a refusal the form shows what the shopper typed, not the saved address.
  const values = actionData?.values ?? { ...address, phone, language };
  const quote = actionData?.quote ?? null;
  const chosenMethod = values.paymentMethod ?? paymentMethods[0]?.name;
  const advanceOffered = paymentMethods.some((method) => method.name === "Bank Transfer");
  return (
    <section>
      <h1>Checkout</h1>
      {/* One form: the address, then (on a phone, below it) what the shopper pays, then Place Order. */}
      <Form method="post" noValidate className="checkout" id="checkout-form">
        {/* Enter in a field places the order: a form's first submit button is the one Enter presses,
            and the visible Place Order comes after Apply. Out of sight and out of the tab order. */}
        <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" disabled={posting}>
          Place Order
        </button>
        <div className="card checkout__address">
          <h2>Shipping Address</h2>
          <FormError message={actionData?.formError} />
          {actionData?.codRefused && advanceOffered ? (
            <p className="pay-in-advance">
              <button type="submit" name="intent" value={PAY_IN_ADVANCE} className="button" disabled={posting}>
                Pay in advance by bank transfer
              </button>{" "}
              Your cart and details stay as they are; we ship once your payment is verified.
            </p>
          ) : null}
          <input type="hidden" name="checkoutKey" value={actionData?.values.checkoutKey ?? checkoutKey} />
          <Field
            name="street"
            label="Street Address"
            autoComplete="street-address"
            defaultValue={values.street}
            error={errors.street}
            required
            maxLength={200}
          />
          <div className="form-row">
            <Field
              name="city"
              label="City"
              autoComplete="address-level2"
              defaultValue={values.city}
              error={errors.city}
              required
              maxLength={100}
            />
            <Field
              name="state"
              label="State / Province"
              autoComplete="address-level1"
              defaultValue={values.state}
              error={errors.state}
              required
              maxLength={100}
            />
          </div>
          <div className="form-row">
            <Field
              name="zipCode"
              label="ZIP / Postal Code"
              autoComplete="postal-code"
              defaultValue={values.zipCode}
              error={errors.zipCode}
              required
              maxLength={20}
            />
            <Field
              name="country"
              label="Country"
              autoComplete="country-name"
              defaultValue={values.country}
              error={errors.country}
              required
              maxLength={100}
            />
          </div>
          <Field
            name="phone"
            label="Mobile Number"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            defaultValue={values.phone}
            error={errors.phone}
            hint="For the courier, and for our call to confirm your order, e.g. 0300-1234567"
            required
            maxLength={30}
          />
          <fieldset className="language-choice" aria-describedby={errors.language ? "language-error" : undefined}>
            <legend>{LANGUAGE_CHOICE.label}</legend>
            <label>
              <input type="radio" name="language" value="ur" defaultChecked={values.language !== "en"} />{" "}
              <span lang="ur" dir="rtl">
                {LANGUAGE_CHOICE.ur}
              </span>
            </label>
            <label>
              <input type="radio" name="language" value="en" defaultChecked={values.language === "en"} />{" "}
              {LANGUAGE_CHOICE.en}
            </label>
            <p className="field-hint">We send your order confirmation by WhatsApp or SMS in this language.</p>
            {errors.language ? (
              <p className="field-error" id="language-error" role="alert">
                {errors.language}
              </p>
            ) : null}
          </fieldset>
        </div>
        <aside className="card cart__summary checkout__summary" aria-labelledby="checkout-summary">
          <h2 id="checkout-summary">Order Summary</h2>
          <ul className="order-items">
            {items.map((line) => (
              <li key={line.product._id} className="order-item">
                <ProductImage src={line.product.imageUrl} images={line.product.images} alt="" size={56} />
                <span className="order-item__name">{`${line.product.name} × ${line.quantity}`}</span>
                <span>{formatRupees(lineTotal(line))}</span>
              </li>
            ))}
          </ul>
          <div className="field discount-field">
            <label htmlFor="field-discountCode">Discount code</label>
            <div className="discount-field__row">
              <input
                id="field-discountCode"
                name="discountCode"
                type="text"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={DISCOUNT_CODE_MAX + 10}
                defaultValue={values.discountCode ?? ""}
                aria-invalid={errors.discountCode ? true : undefined}
                aria-describedby={errors.discountCode ? "field-discountCode-error" : undefined}
              />
              <button type="submit" name="intent" value="apply" className="button button--ghost" disabled={posting}>
                {applying ? "Applying..." : "Apply"}
              </button>
            </div>
            {errors.discountCode ? (
              <p className="field-error" id="field-discountCode-error" role="alert">
                {errors.discountCode}
              </p>
            ) : null}
          </div>
          <div aria-live="polite">
            <SummaryTotals
              total={quote?.totalPrice ?? total}
              subtotal={quote?.subtotal ?? total}
              discount={quote?.discount ?? null}
            />
          </div>
          <fieldset
            className="payment-choice"
            aria-describedby={errors.paymentMethod ? "paymentMethod-error" : undefined}
          >
            <legend>
              <h2>Payment</h2>
            </legend>
            {paymentMethods.map((method) => {
              const discounted = method.discountPercent
                ? ` ${method.discountPercent}% off: you pay ${formatRupees(
                    (quote?.totalPrice ?? total) - advanceDiscount(quote?.totalPrice ?? total, method.discountPercent),
                  )}.`
                : "";
              return (
                <label className="payment-method" key={method.name}>
                  <input
                    type="radio"
                    name="paymentMethod"
                    value={method.name}
                    defaultChecked={method.name === chosenMethod}
                  />{" "}
                  <strong>{method.label}</strong>
                  {`: ${method.checkoutNote}${discounted}`}
                </label>
              );
            })}
            {errors.paymentMethod ? (
              <p className="field-error" id="paymentMethod-error" role="alert">
                {errors.paymentMethod}
              </p>
            ) : null}
          </fieldset>
          <button type="submit" className="button button--block" disabled={posting}>
            {processing ? "Processing..." : "Place Order"}
          </button>
          <p>
            <Link to="/cart">Back to cart</Link>
          </p>
        </aside>
      </Form>
    </section>
  );
}
