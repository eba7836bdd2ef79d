import { hash } from 'node:crypto';

/** SHA-256 of the UTF-8 bytes, lowercase hex (crypto.hash: ~2.6x createHash for short strings). */
export const sha256 = (value: string): string => hash('sha256', value, 'hex');
