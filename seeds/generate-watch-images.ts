/**
 * Draws the demo catalogue's product images, the placeholder, the favicon and the hero illustration
 * as small hand-built SVGs. Run with: npx tsx seeds/generate-watch-images.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { demoWatches, type DemoWatch } from "./data/demo-watches";

type WatchLook = Pick<
  DemoWatch,
  "slug" | "name" | "brand" | "description" | "dial" | "caseColor" | "strap" | "style" | "category"
>;

type RGB = [number, number, number];

const publicDir = join(dirname(fileURLToPath(import.meta.url)), "..", "public");

// ---------- colours ----------

function parseHex(colour: string): RGB {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!match) throw new Error(`Expected a #rrggbb colour, got "${colour}"`);
  return [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)];
}

function toHex([r, g, b]: RGB): string {
  return `#${[r, g, b]
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** `amount` of the way from `from` to `to`. */
function mix(from: string, to: string, amount: number): string {
  const a = parseHex(from);
  const b = parseHex(to);
  return toHex([0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * amount) as RGB);
}

const shade = (colour: string, amount: number): string => mix(colour, "#000000", amount);
const tint = (colour: string, amount: number): string => mix(colour, "#ffffff", amount);

function luminance(colour: string): number {
  const [r, g, b] = parseHex(colour);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

function saturation(colour: string): number {
  const rgb = parseHex(colour);
  const max = Math.max(...rgb);
  return max === 0 ? 0 : (max - Math.min(...rgb)) / max;
}

function hue(colour: string): number {
  const [r, g, b] = parseHex(colour);
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/** Gold and rose gold: markers and hands then take the case's tone instead of plain white/black. */
const isWarmMetal = (colour: string): boolean =>
  saturation(colour) > 0.25 && hue(colour) >= 10 && hue(colour) <= 55 && luminance(colour) > 0.45;

function hash(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

// The description is the source of truth for strap colour ("a brown leather strap").
const strapWords: Record<string, string> = {
  black: "#1f1c1b",
  "dark brown": "#3f2619",
  brown: "#5e3621",
  tan: "#a8703f",
  blush: "#e2b4aa",
  burgundy: "#6a1f2c",
  navy: "#1d2a4a",
  white: "#f1efea",
};

function strapColourFromDescription(description: string): string | undefined {
  const match =
    /\b(black|dark brown|brown|tan|blush|burgundy|navy|white)\s+(?:calfskin\s+|alligator\s+)?(?:leather|resin|rubber|silicone|polyurethane)\b/i.exec(
      description,
    );
  return match ? strapWords[match[1]!.toLowerCase()] : undefined;
}

// ---------- svg helpers ----------

/** Rounds for compact output. */
const n = (value: number): string => String(Math.round(value * 10) / 10).replace(/^(-?)0\./, "$1.");

/** A ring of `count` dashes round the centre: hour markers and minute tracks without one element each. */
function dashRing(radius: number, width: number, count: number, dash: number, colour: string, extra = ""): string {
  const gap = (2 * Math.PI * radius) / count - dash;
  // Centring hairline ticks on the hour is invisible; skip the attribute to save bytes.
  const offset = dash < 1.5 ? "" : ` stroke-dashoffset="${n(dash / 2)}"`;
  return `<circle r="${n(radius)}" stroke="${colour}" stroke-width="${n(width)}" stroke-dasharray="${n(dash)} ${n(gap)}"${offset}${extra}/>`;
}

/** A ring of round dots (zero-length dashes with round caps). */
function dotRing(radius: number, size: number, count: number, colour: string, extra = ""): string {
  const gap = (2 * Math.PI * radius) / count;
  return `<circle r="${n(radius)}" stroke="${colour}" stroke-width="${n(size)}" stroke-linecap="round" stroke-dasharray="0 ${n(gap)}"${extra}/>`;
}

/** Round dots at the hours except 12, 3, 6 and 9, which get batons instead. */
function dotRingBetweenQuarters(radius: number, size: number, colour: string): string {
  const gap = (2 * Math.PI * radius) / 12;
  return `<circle r="${n(radius)}" stroke="${colour}" stroke-width="${n(size)}" stroke-linecap="round" stroke-dasharray="0 ${n(gap)} 0 ${n(gap * 2)}" stroke-dashoffset="${n(-gap)}"/>`;
}

const polar = (radius: number, degreesFromTwelve: number): [number, number] => {
  const a = ((degreesFromTwelve - 90) * Math.PI) / 180;
  return [radius * Math.cos(a), radius * Math.sin(a)];
};

// ---------- the watch ----------

type Palette = {
  caseLight: string;
  caseMid: string;
  caseDark: string;
  ink: string;
  lume: string;
  accent: string;
  strap: string;
  bezel: string;
};

function paletteFor(look: WatchLook, mono: boolean): Palette {
  const caseMid = look.caseColor;
  if (mono) {
    return {
      caseLight: tint(caseMid, 0.4),
      caseMid,
      caseDark: shade(caseMid, 0.25),
      ink: "#9ca1a7",
      lume: "#d9dcdf",
      accent: "#9ca1a7",
      strap: "#c3c7cc",
      bezel: "#b9bdc2",
    };
  }
  const darkDial = luminance(look.dial) < 0.42;
  const warm = isWarmMetal(look.caseColor);
  const ink = darkDial ? (warm ? tint(caseMid, 0.3) : "#eceef0") : warm ? shade(caseMid, 0.45) : "#26282c";
  const redDial = hue(look.dial) < 15 || hue(look.dial) > 340;
  const sporty = look.style === "sport" || look.style === "diver" || look.style === "chronograph";
  const accent = !sporty ? ink : redDial && saturation(look.dial) > 0.4 ? "#f2c230" : "#e04a2f";

  let strap = caseMid;
  if (look.strap === "leather" || look.strap === "rubber") {
    const fallback = look.strap === "rubber" ? "#1e1f22" : ["#4a2c1d", "#6b3f22", "#1f1b19"][hash(look.slug) % 3]!;
    strap = strapColourFromDescription(look.description) ?? fallback;
  }

  let bezel = tint(caseMid, 0.35);
  if (look.style === "diver") {
    if (saturation(look.dial) > 0.35 && darkDial) bezel = shade(look.dial, 0.3);
    else if (darkDial) bezel = "#17181b";
    // An all-silver diver reads as washed out; a navy insert gives the light dial some contrast.
    else bezel = "#22335a";
  } else if (look.style === "chronograph" && look.category === "Men") {
    bezel = darkDial ? shade(look.dial, 0.2) : "#1d1e21";
  }
  return {
    caseLight: tint(caseMid, 0.45),
    caseMid,
    caseDark: shade(caseMid, luminance(caseMid) < 0.2 ? 0.5 : 0.32),
    ink,
    lume: "#eef1e2",
    accent,
    strap,
    bezel,
  };
}

type DrawOptions = {
  /** Prefix for ids, so several watches can share one document. */
  id: string;
  /** How far each strap runs from the centre. */
  strapReach: number;
  /** A grey, brandless watch. */
  mono?: boolean;
  /** Print the brand initial on the dial. */
  initial?: boolean;
};

type Drawing = { defs: string; body: string };

function drawWatch(look: WatchLook, options: DrawOptions): Drawing {
  const { id, strapReach: reach } = options;
  const mono = options.mono ?? false;
  const p = paletteFor(look, mono);
  const men = look.category === "Men";
  const gem = /diamond|crystal/i.test(look.name);
  const moon = /moonphase/i.test(look.name);
  const darkDial = luminance(look.dial) < 0.42;

  const R = men
    ? { classic: 112, dress: 106, chronograph: 122, diver: 120, sport: 118 }[look.style]
    : { classic: 92, dress: 86, chronograph: 98, diver: 96, sport: 98 }[look.style];
  const W = men ? R * 1.0 : R * (look.strap === "metal" ? 0.9 : 0.82);
  const dialR =
    R *
    (look.style === "diver"
      ? 0.8
      : look.style === "sport"
        ? 0.8
        : look.style === "chronograph"
          ? men
            ? 0.8
            : 0.84
          : gem
            ? 0.84
            : 0.9);

  const defs: string[] = [];
  const body: string[] = [];

  // Straps: defined once, filled with a texture and then a cylinder shading on top.
  const strapPath = (sign: 1 | -1): string => {
    const y0 = sign * R * 0.6;
    const y1 = sign * (R + 10);
    const y2 = sign * reach;
    return `M${n(-W / 2)} ${n(y0)}V${n(y1)}L${n(-W * 0.45)} ${n(y2)}H${n(W * 0.45)}L${n(W / 2)} ${n(y1)}V${n(y0)}Z`;
  };
  defs.push(`<path id="${id}t" d="${strapPath(-1)}"/><path id="${id}b" d="${strapPath(1)}"/>`);
  defs.push(
    `<linearGradient id="${id}sh"><stop stop-opacity=".35"/><stop offset=".5" stop-color="#fff" stop-opacity=".1"/><stop offset="1" stop-opacity=".35"/></linearGradient>`,
  );
  let strapFill = p.strap;
  if (look.strap === "metal" && !mono) {
    const h = men ? 22 : 15;
    defs.push(
      `<pattern id="${id}k" width="${n(W)}" height="${h}" x="${n(-W / 2)}" patternUnits="userSpaceOnUse"><rect width="${n(W)}" height="${h}" fill="${p.caseMid}"/><rect x="${n(W * 0.3)}" width="${n(W * 0.4)}" height="${h}" fill="${p.caseLight}"/><rect y="${h - 1.6}" width="${n(W)}" height="1.6" fill="${p.caseDark}"/><path d="M${n(W * 0.3)} 0V${h}M${n(W * 0.7)} 0V${h}" stroke="${p.caseDark}" stroke-width=".8"/></pattern>`,
    );
    strapFill = `url(#${id}k)`;
  } else if (look.strap === "mesh" && !mono) {
    defs.push(
      `<pattern id="${id}k" width="3" height="3" patternUnits="userSpaceOnUse"><rect width="3" height="3" fill="${p.caseMid}"/><path d="M0 0L3 3M3 0L0 3" stroke="${p.caseDark}" stroke-width=".5"/></pattern>`,
    );
    strapFill = `url(#${id}k)`;
  } else if (look.strap === "rubber" && !mono) {
    defs.push(
      `<pattern id="${id}k" width="${n(W)}" height="14" x="${n(-W / 2)}" patternUnits="userSpaceOnUse"><rect width="${n(W)}" height="14" fill="${p.strap}"/><rect x="${n(W * 0.2)}" y="9" width="${n(W * 0.6)}" height="3" rx="1.5" fill="${shade(p.strap, 0.35)}"/></pattern>`,
    );
    strapFill = `url(#${id}k)`;
  }
  const edge = shade(p.strap, 0.35);
  for (const part of ["t", "b"]) {
    body.push(
      `<use href="#${id}${part}" fill="${strapFill}" stroke="${edge}"/><use href="#${id}${part}" fill="url(#${id}sh)"/>`,
    );
  }
  if (look.strap === "leather" && !mono) {
    const stitch = luminance(p.strap) > 0.5 ? shade(p.strap, 0.25) : tint(p.strap, 0.45);
    const x = W / 2 - (men ? 6 : 4.5);
    const y = R + 6;
    body.push(
      `<path d="M${n(-x)} ${n(-y)}L${n(-x + W * 0.05)} ${-reach}M${n(x)} ${n(-y)}L${n(x - W * 0.05)} ${-reach}M${n(-x)} ${n(y)}L${n(-x + W * 0.05)} ${reach}M${n(x)} ${n(y)}L${n(x - W * 0.05)} ${reach}" stroke="${stitch}" stroke-width="1.2" stroke-dasharray="5 3.5"/>`,
    );
    const holes = [R + 44, R + 68, R + 92].filter((y) => y < reach - 8);
    body.push(
      holes
        .map(
          (y) =>
            `<ellipse cy="${n(y)}" rx="${men ? 3.2 : 2.4}" ry="${men ? 2.2 : 1.7}" fill="${shade(p.strap, 0.6)}"/>`,
        )
        .join(""),
    );
  }

  // Lugs sit either side of the straps, under the case.
  const lugW = men ? 13 : 8;
  const lugX = W / 2 + lugW / 2 - 2;
  defs.push(`<rect id="${id}l" x="${n(-lugW / 2)}" width="${lugW}" height="${n(R * 0.4 + 16)}" rx="${n(lugW / 2)}"/>`);
  const lugs = [-1, 1]
    .flatMap((sx) => [-(R + 16), R * 0.6].map((y) => `<use href="#${id}l" x="${n(sx * lugX)}" y="${n(y)}"/>`))
    .join("");
  body.push(`<g fill="url(#${id}c)" stroke="${p.caseDark}">${lugs}</g>`);

  // Crown (and chronograph pushers), drawn before the case so the case overlaps their inner ends.
  const crownW = men ? 15 : 10;
  const crownH = men ? 24 : 15;
  const crown = `<rect x="${n(R - 6)}" y="${n(-crownH / 2)}" width="${n(crownW + 6)}" height="${crownH}" rx="2.5" fill="url(#${id}c)" stroke="${p.caseDark}"/><path d="M${n(R + crownW / 2)} ${n(-crownH / 2 + 2)}V${n(crownH / 2 - 2)}" stroke="${p.caseDark}" stroke-width="${n(crownW - 4)}" stroke-dasharray="1.2 1.8" opacity=".5"/>`;
  if (look.style === "chronograph") {
    const pusher = `<rect x="${n(R - 6)}" y="${n(men ? -6 : -4.5)}" width="${men ? 16 : 11}" height="${men ? 12 : 9}" rx="2" fill="url(#${id}c)" stroke="${p.caseDark}"/>`;
    defs.push(pusher.replace("<rect", `<rect id="${id}p"`));
    body.push(`<use href="#${id}p" transform="rotate(-38)"/><use href="#${id}p" transform="rotate(38)"/>`);
  }
  body.push(crown);

  // Case with polished gradient.
  defs.push(
    `<linearGradient id="${id}c" x2="1" y2="1"><stop stop-color="${p.caseLight}"/><stop offset=".5" stop-color="${p.caseMid}"/><stop offset="1" stop-color="${p.caseDark}"/></linearGradient>`,
  );
  body.push(`<circle r="${R}" fill="url(#${id}c)" stroke="${p.caseDark}" stroke-width="1.5"/>`);

  // Bezel.
  const bezelMid = (R + dialR) / 2;
  const bezelW = R - dialR - 4;
  if (look.style === "diver") {
    body.push(`<circle r="${n(bezelMid)}" stroke="${p.bezel}" stroke-width="${n(bezelW)}"/>`);
    const markColour = luminance(p.bezel) > 0.5 ? "#2a2c30" : "#eef0f2";
    body.push(dashRing(bezelMid, bezelW * 0.45, 12, men ? 2.4 : 1.8, markColour));
    const [tx, ty] = [0, -bezelMid];
    const s = bezelW * 0.42;
    body.push(
      `<path d="M${n(tx - s)} ${n(ty - s * 0.8)}H${n(tx + s)}L${tx} ${n(ty + s * 0.9)}Z" fill="${p.lume}" stroke="${markColour}" stroke-width=".8"/>`,
    );
  } else if (look.style === "chronograph" && men) {
    body.push(`<circle r="${n(bezelMid)}" stroke="${p.bezel}" stroke-width="${n(bezelW)}"/>`);
    body.push(dashRing(bezelMid + bezelW * 0.1, bezelW * 0.4, 60, 0.9, p.ink, ` opacity=".85"`));
  } else if (look.style === "sport") {
    body.push(`<circle r="${n(bezelMid)}" stroke="url(#${id}c)" stroke-width="${n(bezelW)}" transform="rotate(180)"/>`);
    body.push(dotRing(bezelMid, men ? 6 : 4.5, 8, p.caseDark, ` transform="rotate(22.5)"`));
    body.push(dotRing(bezelMid, men ? 3 : 2.2, 8, p.caseLight, ` transform="rotate(22.5)"`));
  } else if (gem) {
    body.push(`<circle r="${n(bezelMid)}" stroke="${p.caseLight}" stroke-width="${n(bezelW)}"/>`);
    body.push(dotRing(bezelMid, bezelW * 0.62, 30, "#ffffff", ` stroke-opacity=".95"`));
    body.push(dotRing(bezelMid, bezelW * 0.25, 30, "#cfe3f0"));
  } else {
    body.push(`<circle r="${n(dialR + 3)}" stroke="${p.caseDark}" stroke-width="1.5"/>`);
  }

  // Dial with a sunburst-like radial gradient.
  defs.push(
    `<radialGradient id="${id}d" cx=".42" cy=".38" r=".75"><stop stop-color="${tint(look.dial, darkDial ? 0.16 : 0.35)}"/><stop offset="1" stop-color="${shade(look.dial, darkDial ? 0.25 : 0.1)}"/></radialGradient>`,
  );
  body.push(`<circle r="${n(dialR)}" fill="url(#${id}d)" stroke="${p.caseDark}"/>`);

  // Minute track and hour markers.
  if (!(look.style === "chronograph" && men))
    body.push(dashRing(dialR * 0.95, dialR * 0.04, 60, 0.7, p.ink, ` opacity=".55"`));
  if (look.style === "diver") {
    // Lume needs a dark surround to read on a light dial; on a dark one it would be invisible bytes.
    if (!darkDial) {
      body.push(dotRingBetweenQuarters(dialR * 0.8, dialR * 0.13, p.ink));
      body.push(dashRing(dialR * 0.78, dialR * 0.2, 4, dialR * 0.09, p.ink));
    }
    body.push(dotRingBetweenQuarters(dialR * 0.8, dialR * (darkDial ? 0.12 : 0.1), p.lume));
    body.push(dashRing(dialR * 0.78, dialR * (darkDial ? 0.19 : 0.17), 4, dialR * (darkDial ? 0.08 : 0.06), p.lume));
  } else if (gem) {
    body.push(dotRing(dialR * 0.8, dialR * 0.085, 12, p.ink));
    body.push(dotRing(dialR * 0.8, dialR * 0.06, 12, "#ffffff"));
  } else if (look.style === "dress") {
    body.push(dashRing(dialR * 0.79, dialR * 0.18, 12, dialR * (men ? 0.022 : 0.02), p.ink));
  } else if (!men && look.style === "classic") {
    body.push(dotRingBetweenQuarters(dialR * 0.8, dialR * 0.065, p.ink));
    body.push(dashRing(dialR * 0.79, dialR * 0.16, 4, dialR * 0.035, p.ink));
  } else {
    const w = dialR * (look.style === "sport" ? 0.06 : 0.045);
    body.push(dashRing(dialR * 0.79, dialR * 0.17, 12, w, p.ink));
    if (look.style === "sport" && darkDial) body.push(dashRing(dialR * 0.79, dialR * 0.12, 12, w * 0.45, p.lume));
  }
  if (men && look.style !== "diver") {
    const w = dialR * 0.06;
    const h = n(dialR * 0.17);
    const y = n(-dialR * 0.875);
    // The doubled 12 o'clock baton: a wide one over the regular marker, split by a dial-coloured slit.
    body.push(
      `<path d="M${n(-w * 1.1)} ${y}h${n(w * 2.2)}v${h}h${n(-w * 2.2)}z" fill="${p.ink}"/><path d="M${n(-w * 0.15)} ${y}h${n(w * 0.3)}v${h}h${n(-w * 0.3)}z" fill="${look.dial}"/>`,
    );
  }

  // Brand initial and the "fine print" lines a real dial carries.
  if (!mono && (options.initial ?? true)) {
    body.push(
      `<text y="${n(-dialR * 0.38)}" text-anchor="middle" font-family="Georgia,serif" font-size="${n(dialR * (men ? 0.2 : 0.18))}" font-weight="${men ? 700 : 400}" fill="${p.ink}">${look.brand.charAt(0)}</text>`,
    );
    body.push(
      `<rect x="${n(-dialR * 0.14)}" y="${n(-dialR * 0.32)}" width="${n(dialR * 0.28)}" height="1" fill="${p.ink}" opacity=".5"/>`,
    );
  }
  const sixFree = look.style !== "chronograph" && !(look.style === "dress" && men) && !moon;
  if (sixFree) {
    body.push(
      `<path d="M${n(-dialR * 0.16)} ${n(dialR * 0.42)}h${n(dialR * 0.32)}M${n(-dialR * 0.1)} ${n(dialR * 0.5)}h${n(dialR * 0.2)}" stroke="${p.ink}" stroke-width="1.2" opacity=".45"/>`,
    );
  }

  // Complications.
  const subdials = (r: number, fill: string, at: [number, number, number][]): string => {
    const subInk = luminance(fill) < 0.42 ? "#eceef0" : "#26282c";
    defs.push(
      `<g id="${id}u"><circle r="${n(r)}" fill="${fill}" stroke="${p.ink}" stroke-width=".8" stroke-opacity=".6"/>${dashRing(r * 0.85, r * 0.18, 12, 0.9, subInk)}<circle r="1.6" fill="${subInk}"/></g>`,
    );
    const faces = at.map(([x, y]) => `<use href="#${id}u" x="${n(x)}" y="${n(y)}"/>`).join("");
    const hands = at
      .map(([x, y, angle]) => {
        const [hx, hy] = polar(r * 0.78, angle);
        return `M${n(x)} ${n(y)}l${n(hx)} ${n(hy)}`;
      })
      .join("");
    return `${faces}<path d="${hands}" stroke="${p.accent}" stroke-width="1.5" stroke-linecap="round"/>`;
  };
  if (look.style === "chronograph") {
    const r = dialR * (men ? 0.21 : 0.19);
    const d = dialR * 0.45;
    const fill = mono
      ? tint(look.dial, 0.3)
      : darkDial
        ? tint(look.dial, 0.12)
        : hash(look.slug) % 2 === 0 || men
          ? "#1f2024"
          : shade(look.dial, 0.08);
    body.push(
      subdials(r, fill, [
        [-d, 0, 40],
        [d, 0, 200],
        [0, d, 300],
      ]),
    );
  } else if (moon && !mono) {
    const r = dialR * 0.22;
    const cy = dialR * 0.46;
    body.push(
      `<circle cy="${n(cy)}" r="${n(r)}" fill="#1b2a55" stroke="${p.ink}"/><circle cx="${n(r * 0.3)}" cy="${n(cy - r * 0.1)}" r="${n(r * 0.42)}" fill="#e9c770"/>` +
        dotRing(r * 0.62, 1.4, 5, "#e9c770", ` transform="translate(0 ${n(cy)}) rotate(200)"`),
    );
  } else if (look.style === "dress" && men) {
    body.push(
      subdials(dialR * 0.2, darkDial ? tint(look.dial, 0.1) : shade(look.dial, 0.06), [[0, dialR * 0.46, 120]]),
    );
  }
  if (men && !mono && (look.style === "classic" || look.style === "sport" || look.style === "diver")) {
    const s = dialR * 0.15;
    body.push(
      `<rect x="${n(dialR * 0.5)}" y="${n(-s / 2)}" width="${n(s)}" height="${n(s)}" rx="1" fill="#f7f6f2" stroke="${p.ink}"/>`,
    );
  }

  // Hands at 10:10, as shoppers expect from watch photography.
  const handStyle = look.style === "dress" || !men ? "leaf" : look.style === "classic" ? "dauphine" : "sword";
  const hand = (length: number, width: number, angle: number): string => {
    const L = length;
    const w = width;
    const t = dialR * 0.12;
    const d =
      handStyle === "leaf"
        ? `M0 ${n(t)}Q${n(w)} ${n(-L * 0.4)} 0 ${n(-L)}Q${n(-w)} ${n(-L * 0.4)} 0 ${n(t)}Z`
        : handStyle === "dauphine"
          ? `M0 ${n(-L)}L${n(w / 2)} 0L0 ${n(t)}L${n(-w / 2)} 0Z`
          : `M${n(-w * 0.35)} ${n(t)}L${n(-w / 2)} ${n(-L * 0.75)}L0 ${n(-L)}L${n(w / 2)} ${n(-L * 0.75)}L${n(w * 0.35)} ${n(t)}Z`;
    const lume =
      (look.style === "diver" || look.style === "sport") && handStyle === "sword" && !mono
        ? `<path d="M${n(-w * 0.18)} ${n(-L * 0.2)}L${n(-w * 0.25)} ${n(-L * 0.72)}L0 ${n(-L * 0.9)}L${n(w * 0.25)} ${n(-L * 0.72)}L${n(w * 0.18)} ${n(-L * 0.2)}Z" fill="${p.lume}"/>`
        : "";
    return `<g transform="rotate(${angle})"><path d="${d}" fill="${p.ink}"/>${lume}</g>`;
  };
  defs.push(`<filter id="${id}h"><feDropShadow dx="1.5" dy="2.5" stdDeviation="1.5" flood-opacity=".35"/></filter>`);
  const scale = men ? 1 : 0.8;
  const secondWidth = men ? 1.6 : 1;
  body.push(
    `<g filter="url(#${id}h)">${hand(dialR * 0.52, dialR * 0.11 * scale, 305)}${hand(dialR * 0.8, dialR * 0.085 * scale, 60)}<path d="M0 ${n(dialR * 0.22)}V${n(-dialR * 0.9)}" stroke="${p.accent}" stroke-width="${secondWidth}" transform="rotate(196)"/><circle r="${n(dialR * 0.05)}" fill="${p.ink}"/><circle r="${n(dialR * 0.022)}" fill="${p.accent}"/></g>`,
  );

  // A soft reflection across the crystal.
  body.push(
    `<path d="M${n(-dialR * 0.92)} ${n(-dialR * 0.1)}A${n(dialR * 0.93)} ${n(dialR * 0.93)} 0 0 1 ${n(dialR * 0.35)} ${n(-dialR * 0.86)}A${n(dialR * 1.2)} ${n(dialR * 1.2)} 0 0 0 ${n(-dialR * 0.92)} ${n(-dialR * 0.1)}Z" fill="#fff" opacity=".1"/>`,
  );

  return { defs: defs.join(""), body: body.join("") };
}

// ---------- documents ----------

function productSvg(look: WatchLook, mono = false): string {
  const { defs, body } = drawWatch(look, { id: "", strapReach: 215, mono });
  const bg = mono ? "#eceef0" : tint(mix(look.dial, look.caseColor, 0.5), 0.86);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">`,
    `<defs>${defs}<radialGradient id="bg" r=".7"><stop stop-color="${tint(bg, 0.55)}"/><stop offset="1" stop-color="${bg}"/></radialGradient>`,
    `<filter id="sd"><feDropShadow dx="0" dy="8" stdDeviation="8" flood-opacity=".25"/></filter></defs>`,
    `<rect width="400" height="400" fill="url(#bg)"/>`,
    `<g transform="translate(200 200)" filter="url(#sd)" fill="none">${body}</g></svg>\n`,
  ].join("");
}

const placeholderLook: WatchLook = {
  slug: "placeholder",
  name: "Watch",
  brand: "",
  description: "",
  dial: "#e2e4e7",
  caseColor: "#b7bbc1",
  strap: "leather",
  style: "classic",
  category: "Men",
};

function faviconSvg(): string {
  const gold = "#d4af37";
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">`,
    `<rect width="64" height="64" rx="14" fill="#16171b"/>`,
    `<g transform="translate(32 32)" fill="none">`,
    `<circle r="23" fill="none" stroke="${gold}" stroke-width="4"/>`,
    dashRing(16.5, 4, 12, 1.6, gold, ` opacity=".55"`),
    dashRing(16, 5, 4, 3, gold),
    `<g stroke="${gold}" stroke-linecap="round"><path d="M0 0L-8.2 -5.7" stroke-width="4"/><path d="M0 0L11.3 -6.5" stroke-width="3"/></g>`,
    `<circle r="3" fill="${gold}"/></g></svg>\n`,
  ].join("");
}

function heroSvg(): string {
  const main = drawWatch(
    {
      slug: "hero-main",
      name: "Hero",
      brand: "W",
      description: "a dark brown leather strap",
      dial: "#121316",
      caseColor: "#cfa64b",
      strap: "leather",
      style: "dress",
      category: "Men",
    },
    { id: "m", strapReach: 330, initial: false },
  );
  const second = drawWatch(
    {
      slug: "hero-second",
      name: "Hero Crystal",
      brand: "W",
      description: "",
      dial: "#f3ebdc",
      caseColor: "#d4a08a",
      strap: "metal",
      style: "classic",
      category: "Women",
    },
    { id: "s", strapReach: 300, initial: false },
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 600" width="1200" height="600">`,
    `<defs>${main.defs}${second.defs}`,
    `<radialGradient id="hb" cx=".7" cy=".5" r=".75"><stop stop-color="#2a2418"/><stop offset=".55" stop-color="#121214"/><stop offset="1" stop-color="#08090b"/></radialGradient>`,
    `<radialGradient id="hg" r=".5"><stop stop-color="#d4af37" stop-opacity=".28"/><stop offset="1" stop-color="#d4af37" stop-opacity="0"/></radialGradient>`,
    `<filter id="hs" x="-30%" y="-30%" width="160%" height="160%"><feDropShadow dx="0" dy="18" stdDeviation="18" flood-opacity=".6"/></filter>`,
    `<filter id="hz"><feGaussianBlur stdDeviation="2.5"/></filter></defs>`,
    `<rect width="1200" height="600" fill="url(#hb)"/>`,
    `<circle cx="820" cy="300" r="330" fill="url(#hg)"/>`,
    `<g fill="none" stroke="#d4af37">`,
    `<circle cx="820" cy="300" r="250" stroke-opacity=".14"/><circle cx="820" cy="300" r="290" stroke-opacity=".09" stroke-dasharray="2 10"/>`,
    `<circle cx="820" cy="300" r="380" stroke-opacity=".06"/><path d="M0 470C260 420 420 520 700 450" stroke-opacity=".1"/></g>`,
    `<g transform="translate(1040 380) rotate(24) scale(.95)" filter="url(#hz)" opacity=".75" fill="none"><g filter="url(#hs)">${second.body}</g></g>`,
    `<g transform="translate(800 300) rotate(-14) scale(1.45)" fill="none"><g filter="url(#hs)">${main.body}</g></g>`,
    `</svg>\n`,
  ].join("");
}

function write(relativePath: string, content: string): void {
  const path = join(publicDir, relativePath);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

for (const watch of demoWatches) write(`images/watches/${watch.slug}.svg`, productSvg(watch));
write("images/placeholder-watch.svg", productSvg(placeholderLook, true));
write("favicon.svg", faviconSvg());
write("images/hero.svg", heroSvg());
console.log(`Wrote ${demoWatches.length} watch images, the placeholder, the favicon and the hero to ${publicDir}`);
