// The version, replaced at build time by esbuild's `define` (package.json's version).
declare const __VX_VERSION__: string;
export const VERSION = typeof __VX_VERSION__ === 'string' ? __VX_VERSION__ : '0.0.0-dev';
