import proxyAddr from "proxy-addr";

/**
 * What Express asks of "trust proxy" for each address of a request's chain, the socket's first
 * (hop 0), then X-Forwarded-For from right to left: may this one's word about the next be believed?
 */
export type TrustFunction = (address: string, hop: number) => boolean;

/** TRUST_PROXY as judged at start. */
export type TrustProxy = {
  /** The setting as written, for messages. */
  setting: string;
  /**
   * The very function Express is given (server/start-up/app.ts), so what was judged here is what runs:
   * the judge and the server cannot read one setting two ways.
   */
  trusts: TrustFunction;
};

/**
 * A hop count trusts that many proxies in front of the store whatever their address: nginx on the
 * same machine is 1, a CDN or load balancer in front of it 2, both 3. A larger count believes
 * entries that the client itself wrote into X-Forwarded-For whenever the real chain is shorter,
 * and is far more likely a misreading of the setting ("trust a lot") than a real chain.
 */
export const TRUST_PROXY_MAX_HOPS = 3;

/**
 * The share of the internet's addresses from which a list is refused: 1/256, as much as a /8 of
 * IPv4 (about 16 million addresses) or a /11 of IPv6's 2000::/3. A CDN's published ranges are far smaller (Cloudflare's IPv4 ranges are about
 * 1.5 million addresses in all), so no honest list comes near it, while `0.0.0.0/1,128.0.0.0/1`,
 * `::ffff:0:0/96` or a few /2s trust (nearly) every client, as `true` does. The machine's own and
 * private networks (proxy-addr's loopback, linklocal and uniquelocal) are not counted: no client
 * on the internet has those addresses.
 */
export const TRUST_PROXY_MAX_SHARE = 1 / 256;

const TRUE_REFUSED =
  "must be a hop count (e.g. 1) or the proxies' addresses, not true: true believes any client's X-Forwarded-For";

/** A setting the store will not run with; the message completes "TRUST_PROXY …". */
export class TrustProxyRefused extends Error {}

/**
 * Compiles TRUST_PROXY as Express would (a hop count, or a comma-separated list of addresses,
 * ranges and proxy-addr's names), then judges the compiled function by what it trusts. Null:
 * nothing is trusted (false, 0 or unset).
 */
export function compileTrustProxy(setting: string): TrustProxy | null {
  const value = setting.trim();
  if (value === "" || value === "false" || value === "0") return null;
  if (value.toLowerCase() === "true") throw new TrustProxyRefused(TRUE_REFUSED);

  let trusts: TrustFunction;
  let hops = 0;
  if (/^\d+$/.test(value)) {
    hops = Number(value);
    if (hops > TRUST_PROXY_MAX_HOPS) {
      throw new TrustProxyRefused(
        `must be a hop count of at most ${TRUST_PROXY_MAX_HOPS} (the proxies in front of the store), not ${value}: a count larger than the real chain believes what clients write into X-Forwarded-For`,
      );
    }
    // Express's own function for a number (express/lib/utils.js, compileTrust).
    trusts = (_address, hop) => hop < hops;
  } else {
    try {
      // Express splits a string on commas and hands the parts to proxy-addr (compileTrust).
      trusts = proxyAddr.compile(value.split(",").map((part) => part.trim()));
    } catch (error) {
      throw new TrustProxyRefused(
        `must be a hop count (e.g. 1) or the proxies' addresses, ranges or names (loopback, linklocal, uniquelocal): ${(error as Error).message}`,
      );
    }
  }

  // Past the proxies a hop count trusts, or from the socket on for a list: who else is believed?
  const shares = trustedShares(trusts, hops);
  for (const [family, share] of Object.entries(shares)) {
    if (share >= TRUST_PROXY_MAX_SHARE) {
      const amount = share >= 1 ? "every" : `${formatPercent(share)} of the`;
      throw new TrustProxyRefused(
        `trusts ${amount} ${family} address${share >= 1 ? "" : "es"} on the internet, so any client there could write its own X-Forwarded-For, as with true: name only the proxies' own addresses`,
      );
    }
  }
  return { setting: value, trusts };
}

/** proxy-addr's names for the machine's own and private networks, compiled by proxy-addr itself. */
const LOCAL_NETWORKS = proxyAddr.compile(["loopback", "linklocal", "uniquelocal"]);

/**
 * The address space is cut into 65,536 blocks per family, each probed with one address: IPv4 by
 * its /16 blocks, IPv6 by the /19 blocks of 2000::/3, where every IPv6 client on the internet is.
 * `index` is the block's number, its 16 bits following the family's fixed prefix.
 */
const FAMILIES = {
  IPv4: {
    probe: (index: number) => `${index >> 8}.${index & 255}.128.1`,
    local: (address: string) => LOCAL_NETWORKS(address, 0),
  },
  IPv6: {
    probe: (index: number) => {
      // 001 and the block's 16 bits are the address's first 19 bits; the probe sits mid-block.
      const first32 = ((1 << 16) | index) << 13;
      return `${((first32 >>> 16) & 0xffff).toString(16)}:${((first32 & 0xffff) | 0x1000).toString(16)}::1`;
    },
    local: () => false,
  },
} as const;

/**
 * The share of each family's internet addresses that `trusts` believes at `hop`, asked of the
 * function itself. Asking all 65,536 blocks costs about a second for IPv6 (proxy-addr parses every
 * address it is asked about), so the first block of each run of 16 is asked, and a run is asked in
 * full only when its first block is trusted: ranges as large as a run (a /12 of IPv4, a /15 of
 * IPv6) or larger are counted exactly, a smaller one containing a first block to the block, and
 * one that contains none is missed, which takes dozens of such ranges to matter at the threshold.
 * A share over four times the threshold on the first blocks alone is answered as it is.
 */
export function trustedShares(trusts: TrustFunction, hop: number): Record<keyof typeof FAMILIES, number> {
  const share = (family: (typeof FAMILIES)[keyof typeof FAMILIES]) => {
    const runs: number[] = [];
    let counted = 0;
    for (let run = 0; run < 4096; run += 1) {
      const first = family.probe(run << 4);
      // The machine's own and private networks are no one's on the internet.
      if (family.local(first)) continue;
      counted += 1;
      if (trusts(first, hop)) runs.push(run);
    }
    if (runs.length / counted >= 4 * TRUST_PROXY_MAX_SHARE) return runs.length / counted;
    let trusted = 0;
    for (const run of runs) {
      for (let block = run << 4; block < (run + 1) << 4; block += 1) {
        const address = family.probe(block);
        if (!family.local(address) && trusts(address, hop)) trusted += 1;
      }
    }
    return trusted / (counted * 16);
  };
  return { IPv4: share(FAMILIES.IPv4), IPv6: share(FAMILIES.IPv6) };
}

function formatPercent(share: number): string {
  const percent = share * 100;
  return `${percent >= 10 ? Math.round(percent) : percent.toPrecision(2)}%`;
}
