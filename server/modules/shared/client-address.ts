import net from "node:net";

/**
 * What a per-address rate limit counts (rate-limiter.ts; docs/decisions/2026-11-29-rate-limit-addresses.md):
 * the client's network rather than its one address. An IPv6 client is given a /64 by its provider
 * and may use any of its 2^64 addresses, so an IPv6 address counts as its /64, written
 * `2001:db8:0:1::/64`; an IPv4-mapped address (`::ffff:203.0.113.7` or `::ffff:cb00:7107`, as a
 * dual-stack socket or a proxy may write an IPv4 client) counts as the IPv4 address itself. The
 * spelling does not matter: compressed or not, capitals, leading zeros in a group, a zone
 * (`%eth0`). Anything that is not an address (none at all) counts as itself.
 */
export function addressKey(address: string): string {
  let text = address.trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  if (text.includes(":")) text = text.replace(/%.*$/, "");
  if (net.isIPv4(text)) return text;
  if (!net.isIPv6(text)) return text.toLowerCase();
  const groups = ipv6Groups(text);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an address net.isIPv6 accepts (no zone): `::` filled, a dotted tail as two groups. */
function ipv6Groups(address: string): number[] {
  const parse = (part: string): number[] =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split(".").map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const gap = address.indexOf("::");
  if (gap === -1) return parse(address);
  const head = parse(address.slice(0, gap));
  const tail = parse(address.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
