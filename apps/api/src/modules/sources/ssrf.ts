import { BlockList, isIP } from 'node:net';

/**
 * Addresses a source may not reach unless SOURCES_ALLOW_NETWORKS lists them, in every environment (issue 30):
 * loopback, private, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT, multicast, reserved and unspecified, in IPv4 and IPv6. IPv4-mapped and
 * NAT64 IPv6 forms are checked by their embedded IPv4 address.
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
  // IPv4-compatible (deprecated ::a.b.c.d) and local-use NAT64: not routed to IPv4 on Linux today, refused anyway.
  ['::', 96],
  ['64:ff9b:1::', 48],
  // 6to4 and Teredo carry an IPv4 address (the relay's or the client's) that a relay would reach for us.
  ['2002::', 16],
  ['2001::', 32],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const m = /^(?:::ffff:|64:ff9b::)(?:0:)?([0-9a-f.:]+)$/.exec(lower);
  if (!m) return null;
  const tail = m[1]!;
  if (isIP(tail) === 4) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(tail);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True when a source may not connect to this IP address. Anything not an IP is refused too. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

/**
 * SOURCES_ALLOW_NETWORKS: comma-separated CIDRs (or single addresses) a self-hoster lets sources reach, e.g. a LAN
 * SFTP server or MinIO. Loopback is allowed only when listed. Throws naming the first entry that is not one.
 */
export function parseAllowNetworks(spec: string | undefined): BlockList {
  const allowed = new BlockList();
  for (const entry of (spec ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [net = '', bits] = entry.split('/');
    const family = isIP(net);
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > max)
      throw new Error(`SOURCES_ALLOW_NETWORKS: "${entry}" is not an IP address or CIDR`);
    allowed.addSubnet(net, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return allowed;
}

/** The rule sources apply: blocked unless the allow list names the address (or the IPv4 inside it). */
export function sourceAddressRule(allowed: BlockList): (address: string) => boolean {
  return (address) => {
    if (!isBlockedAddress(address)) return false;
    const family = isIP(address);
    if (family === 4) return !allowed.check(address, 'ipv4');
    if (family === 6) {
      const v4 = embeddedIpv4(address);
      return !(allowed.check(address, 'ipv6') || (v4 !== null && allowed.check(v4, 'ipv4')));
    }
    return true;
  };
}
