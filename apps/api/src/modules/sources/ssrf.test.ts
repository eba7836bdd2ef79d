import { describe, expect, it } from 'vitest';
import { isBlockedAddress, parseAllowNetworks, sourceAddressRule } from './ssrf.ts';

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::abcd',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '0:0:0:0:0:ffff:7f00:1',
    '::127.0.0.1',
    '::7f00:1',
    '64:ff9b:1::a00:1',
    'fe80::1%eth0',
    // 6to4 (2002::/16, here wrapping 127.0.0.1) and Teredo (2001::/32)
    '2002:7f00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'not-an-ip',
  ])('refuses %s', (address) => expect(isBlockedAddress(address)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => expect(isBlockedAddress(address)).toBe(false),
  );
});

describe('SOURCES_ALLOW_NETWORKS', () => {
  it('lets through only the listed networks, loopback included only when listed', () => {
    const rule = sourceAddressRule(parseAllowNetworks('10.0.0.0/8, 192.168.1.20/32'));
    expect(rule('10.1.2.3')).toBe(false);
    expect(rule('::ffff:10.1.2.3')).toBe(false);
    expect(rule('192.168.1.20')).toBe(false);
    expect(rule('192.168.1.21')).toBe(true);
    expect(rule('127.0.0.1')).toBe(true);
    expect(rule('::1')).toBe(true);
    expect(rule('8.8.8.8')).toBe(false);
    const none = sourceAddressRule(parseAllowNetworks(undefined));
    expect(none('127.0.0.1')).toBe(true);
    expect(none('10.1.2.3')).toBe(true);
    const loop = sourceAddressRule(parseAllowNetworks('127.0.0.0/8,::1'));
    expect(loop('127.0.0.1')).toBe(false);
    expect(loop('::1')).toBe(false);
  });

  it.each(['loopback', '10.0.0.0/33', '10.0.0/8', 'fd00::/129', '/8'])('refuses "%s" naming it', (entry) =>
    expect(() => parseAllowNetworks(entry)).toThrow(`"${entry}"`),
  );
});
