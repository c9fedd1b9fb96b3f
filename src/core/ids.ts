const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** 32 random hex characters: the reference's form for message ids and publish guids. */
export function randomHexId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  let id = '';
  for (const byte of bytes) id += HEX[byte] as string;
  return id;
}
