import { describe, expect, it } from 'vitest';
import { isBlockedAddress } from './ssrf.ts';

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
    'not-an-ip',
  ])('refuses %s', (address) => expect(isBlockedAddress(address)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => expect(isBlockedAddress(address)).toBe(false),
  );
});
