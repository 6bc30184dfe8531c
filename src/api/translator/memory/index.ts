// The translation memory (memory.ts), its key model (key.ts) and value codec (codec.ts); where
// the entries are kept is a store behind store.ts's interface (the embedded LMDB: store-lmdb.ts).
export { completeResult, createdNote, TranslationMemory, type Claimed, type MemoryEntry, type OpenMemoryOptions } from './memory.js';
export { entryKey, keyOptions, optionsId, type KeyOptions } from './key.js';
export { decodeValue, encodeValue } from './codec.js';
