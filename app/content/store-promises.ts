/**
 * What the store promises, as the home page's feature blurbs and the about page tell it
 * (docs/product.md, "Contact and content"; nothing the store does not do).
 */
export const STORE_FEATURES = [
  {
    title: "100% Authentic",
    text: "Every watch comes from the brand or its authorised distributors. No copies, ever.",
  },
  {
    title: "Certificate & Warranty",
    text: "A certificate of authenticity and the manufacturer's warranty come in the box.",
  },
  {
    title: "Free Delivery",
    text: "Free delivery across Pakistan: 3-5 business days to major cities, 5-7 elsewhere.",
  },
  {
    title: "Cash on Delivery",
    text: "Pay the courier when the watch is in your hands. Nothing to pay online.",
  },
];

export const RETURNS_PROMISE = {
  title: "7-Day Returns",
  text: "Not right? Ask for a return of an unworn watch under My Orders within 7 days of delivery.",
};

export const TESTIMONIALS = [
  {
    quote:
      "The watch arrived in Multan in four days, sealed, with its warranty card. I paid the courier at the door. Exactly as promised.",
    name: "Ahmed R.",
    city: "Multan",
  },
  {
    quote:
      "I bought a gift for my sister's wedding and was nervous about buying online. The certificate of authenticity put my mind at rest.",
    name: "Ayesha K.",
    city: "Karachi",
  },
  {
    quote:
      "Good prices, honest descriptions and quick answers to my questions. My second watch from them and certainly not the last.",
    name: "Usman T.",
    city: "Islamabad",
  },
];

/** The first-order code (docs/product.md, "Discount codes"): checkout takes it. */
export { FIRST_ORDER_CODE } from "../../server/modules/discounts/discount-values.shared";
