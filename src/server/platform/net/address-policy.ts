// Which IP addresses outbound fetches may reach: public unicast only, unless a CIDR is explicitly allowed.
import { BlockList, isIP } from 'node:net';

const blockedV4: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const blockedV6: Array<[string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
];

export class AddressPolicy {
  private readonly blocked = new BlockList();
  private readonly allowed = new BlockList();

  constructor(allowCidrs: string[]) {
    for (const [net, prefix] of blockedV4) this.blocked.addSubnet(net, prefix, 'ipv4');
    for (const [net, prefix] of blockedV6) this.blocked.addSubnet(net, prefix, 'ipv6');
    for (const cidr of allowCidrs) {
      const [net, prefixText] = cidr.split('/');
      const family = net && isIP(net) === 6 ? 'ipv6' : 'ipv4';
      if (!net || !isIP(net)) throw new Error(`PALKIT_OUTBOUND_ALLOW: "${cidr}" is not a CIDR`);
      this.allowed.addSubnet(net, Number(prefixText ?? (family === 'ipv6' ? 128 : 32)), family);
    }
  }

  /** True when the address may be connected to. IPv4-mapped IPv6 addresses are judged as IPv4. */
  permits(address: string): boolean {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const ip = mapped ?? address;
    const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (isIP(ip) === 0) return false;
    if (this.allowed.check(ip, family)) return true;
    return !this.blocked.check(ip, family);
  }
}
