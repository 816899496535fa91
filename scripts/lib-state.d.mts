export declare const STAMP: string;
export declare function isCompiledSource(name: string): boolean;
export declare function newestSource(root: string): number;
export declare function libState(root: string): 'fresh' | 'stale' | 'missing' | 'no-sources';
export declare function sourceDigest(root: string): string;
