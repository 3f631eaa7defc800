import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/modules/accounts/passwords";
import { CONTACT_PER_IP } from "../../server/modules/contact/contact.service";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/test-server";
import { signedInClient } from "../support/page-clients";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await server.database.db("users").insert([
    {
      name: "Admin Content",
      email: "admin@content.test",
      passwordHash: await hashPassword("adminpass1"),
      role: "admin",
    },
    {
      name: "Sana Content",
      email: "sana@content.test",
      passwordHash: await hashPassword("custpass1"),
      role: "customer",
    },
  ]);
});
afterAll(async () => {
  await server?.close();
});

const signedIn = (email: string, password: string) => signedInClient(server.baseUrl, email, password);

const messages = () => server.database.db("contact_messages").orderBy("created_at");

const goodMessage = {
  name: "Bilal Ahmed",
  email: "Bilal@Example.com",
  subject: "Warranty question",
  message: "Does the Seiko diver come with an international warranty?\nThanks.",
};

describe("home page", () => {
  it("has the store's blurbs, the FIRST10 banner, the figures it can bear out, three testimonials and the calls to action", async () => {
    const html = await (await new TestClient(server.baseUrl).get("/")).text();
    for (const text of [
      "100% Authentic",
      "Certificate &amp; Warranty",
      "Free Delivery",
      "Cash on Delivery",
      "FIRST10",
    ]) {
      expect(html).toContain(text);
    }
    expect(html.match(/<figure class="testimonial">/g)).toHaveLength(3);
    for (const href of ["/products?category=Men", "/products?category=Women", "/products", "/about", "/contact"]) {
      expect(html).toContain(`href="${href}"`);
    }
  });
});

describe("about and FAQ pages", () => {
  it("serve their content with their own title, description and canonical address", async () => {
    for (const [path, title] of [
      ["/about", "About Us | Waqt"],
      ["/faq", "Frequently Asked Questions | Waqt"],
      ["/contact", "Contact Us | Waqt"],
    ] as const) {
      const response = await new TestClient(server.baseUrl).get(path);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(`<title>${title}</title>`);
      expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
      expect(html).toContain(`<link rel="canonical" href="${server.config.publicUrl}${path}"/>`);
      expect(html).not.toContain("noindex");
    }
  });

  it("answers in six categories with the store's claims, each item a native <details>", async () => {
    const html = await (await new TestClient(server.baseUrl).get("/faq")).text();
    for (const category of [
      "Ordering &amp; Payment",
      "Shipping &amp; Delivery",
      "Products &amp; Authenticity",
      "Returns &amp; Exchanges",
      "Account &amp; Support",
      "Product Care",
    ]) {
      expect(html).toContain(`>${category}</h2>`);
    }
    for (const claim of [
      "7 days",
      "within 2 hours",
      "3-5 business days",
      "5-7 business days to other areas",
      "up to 3 delivery attempts",
      "An account is required",
      "refund is made within 5-7 business days",
      "2-3 weeks",
    ]) {
      expect(html).toContain(claim);
    }
    expect((html.match(/<details/g) ?? []).length).toBeGreaterThanOrEqual(18);
    // What the store does now: a call, courier and tracking number by mail and under My Orders,
    // reset links, stock alerts, and cancelling within 2 hours from My Orders.
    expect(html).toContain("we call the mobile number you gave at checkout");
    expect(html).toContain("give the courier (such as TCS, Leopards or M&amp;P) and the tracking number");
    expect(html).toContain("choose Forgot your password?");
    expect(html).toContain("choose Notify me when it&#x27;s back");
    expect(html).toContain("open My Orders, choose the order and press Cancel order");
    expect(html).not.toContain("Contact us from the email address of your account");
  });

  it("are listed in the sitemap", async () => {
    const xml = await (await new TestClient(server.baseUrl).get("/sitemap.xml")).text();
    for (const path of ["/about", "/faq", "/contact"])
      expect(xml).toContain(`<loc>${server.config.publicUrl}${path}</loc>`);
  });
});

describe("contact page", () => {
  it("shows the business hours, email, phone and Lahore address from the store's configuration", async () => {
    const html = await (await new TestClient(server.baseUrl).get("/contact")).text();
    for (const text of [
      "Monday - Friday",
      "9:00 AM - 8:00 PM",
      "Saturday",
      "10:00 AM - 6:00 PM",
      "Sunday",
      "Closed",
      "Lahore, Pakistan",
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toContain(`mailto:${server.config.store.email}`);
    expect(html).toContain(server.config.store.phone);
  });

  it("refuses an empty message with a message beside each field and stores nothing", async () => {
    const response = await new TestClient(server.baseUrl).postForm("/contact", {
      name: "",
      email: "",
      subject: "",
      message: "",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of ["Name is required", "Email is required", "Subject is required", "Message is required"]) {
      expect(html).toContain(message);
    }
    expect(await messages()).toHaveLength(0);
  });

  it("keeps what was typed when one field is wrong", async () => {
    const response = await new TestClient(server.baseUrl).postForm("/contact", {
      ...goodMessage,
      email: "not-an-email",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Please enter a valid email address");
    expect(html).toContain('value="Bilal Ahmed"');
    expect(html).toContain('value="Warranty question"');
    expect(html).toContain("Does the Seiko diver come with an international warranty?");
    expect(await messages()).toHaveLength(0);
  });

  it("refuses a message longer than the limit", async () => {
    const response = await new TestClient(server.baseUrl).postForm("/contact", {
      ...goodMessage,
      message: "x".repeat(5001),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Message must be at most 5000 characters");
    expect(await messages()).toHaveLength(0);
  });

  it("refuses a filled honeypot and stores nothing", async () => {
    const response = await new TestClient(server.baseUrl).postForm("/contact", {
      ...goodMessage,
      website: "http://spam.example",
    });
    expect(response.status).toBe(403);
    expect(await messages()).toHaveLength(0);
  });

  it("stores a message, then thanks the sender on a fresh, empty form", async () => {
    const client = new TestClient(server.baseUrl);
    const response = await client.postForm("/contact", goodMessage);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/contact");
    const stored = await messages();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      name: "Bilal Ahmed",
      email: "bilal@example.com",
      subject: "Warranty question",
      message: goodMessage.message,
      userId: null,
    });
    const thanks = await (await client.get("/contact")).text();
    expect(thanks).toContain("Thank you for your message! We&#x27;ll get back to you soon.");
    expect(thanks).not.toContain('value="Bilal Ahmed"');
    // Thanked once: a reload shows the plain form.
    expect(await (await client.get("/contact")).text()).not.toContain("Thank you for your message!");
  });

  it("fills in a signed-in shopper's name and email and remembers who sent it", async () => {
    const client = await signedIn("sana@content.test", "custpass1");
    const html = await (await client.get("/contact")).text();
    expect(html).toContain('value="Sana Content"');
    expect(html).toContain('value="sana@content.test"');
    await client.postForm("/contact", {
      name: "Sana Content",
      email: "sana@content.test",
      subject: "Order",
      message: "Where is it?",
    });
    const sana = await server.database.db("users").where("email", "sana@content.test").first();
    expect((await messages()).at(-1)).toMatchObject({ subject: "Order", userId: sana.id });
  });

  it("renders HTML in a message as text, for the admin too", async () => {
    const client = new TestClient(server.baseUrl);
    await client.postForm("/contact", {
      ...goodMessage,
      subject: "<script>alert(1)</script>",
      message: '"><img src=x onerror=alert(1)>',
    });
    const admin = await signedIn("admin@content.test", "adminpass1");
    const html = await (await admin.get("/admin/messages")).text();
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
  });
});

describe("admin messages", () => {
  it("lists the messages, newest first, for admins only; the dashboard links to them", async () => {
    const admin = await signedIn("admin@content.test", "adminpass1");
    const html = await (await admin.get("/admin/messages")).text();
    const total = (await messages()).length;
    expect(html).toContain(`${total} messages from the contact page`);
    expect(html.indexOf("&lt;script&gt;")).toBeLessThan(html.indexOf("Warranty question"));
    expect(html).toContain("mailto:bilal@example.com?subject=Re%3A%20Warranty%20question");
    const dashboard = await (await admin.get("/admin")).text();
    expect(dashboard).toContain('href="/admin/messages"');
    expect(dashboard).toContain(`${total} messages from the contact page`);

    const customer = await signedIn("sana@content.test", "custpass1");
    const refused = await customer.get("/admin/messages");
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/");
    const guest = await new TestClient(server.baseUrl).get("/admin/messages");
    expect(guest.headers.get("location")).toBe("/login?redirectTo=%2Fadmin%2Fmessages");
  });

  it("pages through many messages 50 at a time", async () => {
    await server.database.db("contact_messages").insert(
      Array.from({ length: 60 }, (_, index) => ({
        name: "Bulk",
        email: "bulk@example.com",
        subject: `Bulk ${index}`,
        message: "m",
        createdAt: new Date(Date.UTC(2020, 0, 1, 0, index)),
      })),
    );
    const admin = await signedIn("admin@content.test", "adminpass1");
    const first = await (await admin.get("/admin/messages")).text();
    expect(first.match(/class="message__body"/g)).toHaveLength(50);
    expect(first).toContain('href="/admin/messages?page=2"');
    const second = await (await admin.get("/admin/messages?page=2")).text();
    expect(second).toContain("Bulk 0");
  });
});

describe("contact rate limit", () => {
  it("refuses a sender past the limit with 429 and keeps the message typed", async () => {
    const limited = await startTestServer({ RATE_LIMITS: "on" });
    try {
      const client = new TestClient(limited.baseUrl);
      for (let sent = 0; sent < CONTACT_PER_IP.limit; sent++) {
        expect((await client.postForm("/contact", goodMessage)).status).toBe(303);
      }
      const refused = await client.postForm("/contact", goodMessage);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      const html = await refused.text();
      expect(html).toContain("Too many messages sent from your connection");
      expect(html).toContain('value="Warranty question"');
      expect(await limited.database.db("contact_messages").count("* as count").first()).toEqual({
        count: CONTACT_PER_IP.limit,
      });
    } finally {
      await limited.close();
    }
  });
});
