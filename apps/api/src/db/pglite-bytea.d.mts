export declare const BYTEA: 17;
export declare function serializeBytea(x: unknown): string;
export declare function parseBytea(x: string): Uint8Array;
