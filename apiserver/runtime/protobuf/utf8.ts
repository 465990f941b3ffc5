/**
 * Strings on the wire as Go has them. Go strings are bytes: encoding a JavaScript string as UTF-8 turns
 * a lone surrogate (which JSON's "\ud800" makes) into U+FFFD, as Go's UTF-16 decoding does, where
 * protobufjs would write the surrogate's three bytes (ED A0 80, invalid UTF-8). Decoding takes valid
 * UTF-8 as is (a leading byte-order mark kept) and reads each byte of an invalid sequence as one U+FFFD,
 * as Go's utf8.DecodeRune and so its JSON encoder do.
 */

/** The string with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed). */
export function wellFormed(s: string): string {
  const str = s as string & { isWellFormed(): boolean; toWellFormed(): string };
  return str.isWellFormed() ? s : str.toWellFormed();
}

const valid = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The smallest and largest second byte of a sequence starting with `lead` (Go's acceptRanges), or undefined. */
function secondByteRange(lead: number): [number, number] | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return [0x80, 0xbf];
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead >= 0xe1 && lead <= 0xef) return [0x80, 0xbf];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [0x80, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return undefined;
}

/** Decodes UTF-8 as Go reads it rune by rune: one U+FFFD per byte that does not start a valid sequence. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return valid.decode(bytes);
  } catch {
    return decodeInvalid(bytes);
  }
}

function decodeInvalid(bytes: Uint8Array): string {
  const out: string[] = [];
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      out.push(String.fromCharCode(lead));
      i++;
      continue;
    }
    const range = secondByteRange(lead);
    const size = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    let ok = range !== undefined && i + size <= bytes.length && bytes[i + 1] >= range[0] && bytes[i + 1] <= range[1];
    for (let k = 2; ok && k < size; k++) ok = bytes[i + k] >= 0x80 && bytes[i + k] <= 0xbf;
    if (!ok) {
      out.push('\ufffd');
      i++;
      continue;
    }
    out.push(valid.decode(bytes.subarray(i, i + size)));
    i += size;
  }
  return out.join('');
}
