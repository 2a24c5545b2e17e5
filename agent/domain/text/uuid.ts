/** 16 random bytes as a version 4 UUID, the form crypto.randomUUID() gives: its version and variant bits set. */
export function uuidOf(random: Uint8Array): string {
  if (random.length !== 16) throw new RangeError(`a UUID takes 16 bytes, not ${random.length}`);
  const bytes = Uint8Array.from(random);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
