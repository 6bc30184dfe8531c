// The translation memory (memory.ts), its key model (key.ts) and value codec (codec.ts); where
// the entries are kept is a store behind store.ts's interface (the embedded LMDB: store-lmdb.ts).
export { createdNote, TranslationMemory, type MemoryEntry, type OpenMemoryOptions } from './memory.js';
export { completeResult, type Claimed } from './recall.js';
export { entryKey, keyOptions, optionsId, type KeyOptions } from './key.js';
export { decodeValue, encodeValue } from './codec.js';
