/**
 * The FAQ: six categories, the store's claims as answers (docs/product.md, "Contact and content").
 * It promises only what the store does: a forgotten password is reset by a link by email, a
 * sold-out watch can be watched for ("Back in stock"), a pending order can be cancelled by its
 * customer within 2 hours ("Cancelling an order"), and a shipped order shows and mails its courier
 * and tracking number ("Shipping an order", "Order mails"); checkout takes FIRST10 and My Orders
 * takes returns ("Discount codes" and "Returns").
 */
export type FaqCategory = { title: string; entries: { question: string; answer: string }[] };

export const FAQ_CATEGORIES: FaqCategory[] = [
  {
    title: "Ordering & Payment",
    entries: [
      {
        question: "How do I place an order?",
        answer:
          "Create an account or log in, add watches to your cart, then choose Proceed to Checkout, enter your shipping address and mobile number and press Place Order. You will see your order number straight away, we email you a confirmation with the items, the total and what happens next, and the order appears under My Orders.",
      },
      {
        question: "Do I need an account to order?",
        answer:
          "Yes. An account is required to place an order, so that you can follow its status under My Orders and we can reach you about delivery. Signing up takes a minute and is free.",
      },
      {
        question: "Which payment methods do you accept?",
        answer:
          "Cash on Delivery is our only payment method: you pay the courier in cash when your watch arrives. There is nothing to pay online and no card details to share.",
      },
      {
        question: "Can I change or cancel my order?",
        answer:
          "Yes, within 2 hours of ordering, while the order is still pending. To cancel, open My Orders, choose the order and press Cancel order, then confirm: the order is cancelled at once and we email you to say so. To change an order (an address, a watch), contact us by phone or through the contact page with your order number within those 2 hours. After 2 hours, or once the order has shipped, it can no longer be cancelled online.",
      },
      {
        question: "How do I use the FIRST10 discount code?",
        answer:
          "FIRST10 gives 10% off the watches of your first order. At checkout, type FIRST10 in the Discount code field and press Apply: the order summary shows the discount and the new total before you press Place Order, and the courier collects that total. It works once, on your first order (an order you cancelled does not count).",
      },
    ],
  },
  {
    title: "Shipping & Delivery",
    entries: [
      {
        question: "How much does delivery cost?",
        answer: "Nothing. Delivery is free on every order, anywhere in Pakistan.",
      },
      {
        question: "How long does delivery take?",
        answer:
          "3-5 business days to major cities (Karachi, Lahore, Islamabad, Rawalpindi, Faisalabad and others) and 5-7 business days to other areas.",
      },
      {
        question: "What if I am not home when the courier arrives?",
        answer:
          "The courier makes up to 3 delivery attempts. If none of them reaches you, contact us with your order number and we will arrange a new delivery.",
      },
      {
        question: "How can I follow my order?",
        answer:
          "Before we send a cash-on-delivery order, we call the mobile number you gave at checkout to confirm it. My Orders shows the status of each order: Pending while we prepare it, Shipped once it is with the courier, and Delivered; we email you when it ships and when it is delivered. The shipping email and the order's page under My Orders give the courier (such as TCS, Leopards or M&P) and the tracking number: enter it on the courier's website to follow your parcel to your door. For anything more, contact us with your order number.",
      },
    ],
  },
  {
    title: "Products & Authenticity",
    entries: [
      {
        question: "Are your watches genuine?",
        answer:
          "Yes, 100%. Every watch is sourced from the brand or its authorised distributors and comes with a certificate of authenticity and the manufacturer's warranty.",
      },
      {
        question: "Do the watches come with a warranty?",
        answer:
          "Yes. Each watch carries its manufacturer's warranty; the warranty card and certificate of authenticity are in the box. Contact us if you ever need to make a claim and we will help you through it.",
      },
      {
        question: "A watch I want is out of stock. Can you tell me when it is back?",
        answer:
          "Yes. On the watch's page, choose Notify me when it's back and leave your email (signed in, we use your account's). When the watch is back in stock we send you one email; every such email has a link to stop all stock alerts. Signed in, you can see and cancel your waiting alerts under My Profile. Looking for a watch we do not carry? Contact us with its name and we will try to source it; sourcing usually takes 2-3 weeks.",
      },
    ],
  },
  {
    title: "Returns & Exchanges",
    entries: [
      {
        question: "What is your return policy?",
        answer:
          "You may return a watch within 7 days of delivery if it is unworn, in its original packaging, with its tags, certificate and warranty card. We do not swap watches: to exchange one, return it and order the one you want.",
      },
      {
        question: "How do I return a watch?",
        answer:
          "Within 7 days of delivery, open My Orders and press Request a return on the order: choose the watches, how many, and the reason. We answer under My Orders and by email: once we approve the return, we arrange the pick-up and tell you how to pack the watch.",
      },
      {
        question: "When will I get my refund?",
        answer:
          "Once we receive and check the returned watch, your refund is made within 5-7 business days, in cash, by bank transfer, JazzCash or Easypaisa, as we agree with you. You get back what you paid for the watch: its price, less its share of any discount code. My Orders shows the refund and its reference.",
      },
    ],
  },
  {
    title: "Account & Support",
    entries: [
      {
        question: "I forgot my password. What can I do?",
        answer:
          "On the log-in page, choose Forgot your password? and enter your account's email. We email you a link to choose a new password; it works once, within 1 hour. Choosing a new password signs you out on every other device and signs you in on this one. If you are signed in, you can change your password at any time from My Profile; either way we email you when it changes.",
      },
      {
        question: "How do I update my details or address?",
        answer:
          "Sign in and open My Profile, then Edit Profile. Your saved address is filled in for you at checkout, and you can change it there for a single order.",
      },
      {
        question: "How can I reach customer service?",
        answer:
          "Send us a message through the contact page, or email or call us during our business hours (below). We answer messages within one business day.",
      },
    ],
  },
  {
    title: "Product Care",
    entries: [
      {
        question: "How should I care for my watch?",
        answer:
          "Wipe it with a soft, dry cloth, keep it away from strong magnets and extreme heat, and store it in its box when you are not wearing it. Leather straps last longer kept dry and out of direct sunlight.",
      },
      {
        question: "Is my watch water resistant?",
        answer:
          "Check the rating on the case back or in the product description. A 30 m (3 ATM) rating means splashes only; 100 m suits swimming; only dive watches of 200 m and more are made for diving. Never press the buttons or pull the crown under water.",
      },
      {
        question: "How often does a watch need servicing?",
        answer:
          "A mechanical or automatic watch benefits from a service every 3-5 years; a quartz watch needs a new battery every 2-3 years. Contact us and we will point you to the brand's authorised service centre.",
      },
    ],
  },
];
