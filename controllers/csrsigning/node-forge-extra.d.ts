/**
 * Two calls node-forge has at run time (lib/asn1.js, lib/util.js) that its published types leave out:
 * fromDer's options object (the types know only the older `strict` boolean) and bytesFromIP, which
 * answers null for text that is no IP address.
 */
import 'node-forge';

declare module 'node-forge' {
  namespace asn1 {
    function fromDer(
      bytes: Bytes | util.ByteBuffer,
      options: { strict?: boolean; parseAllBytes?: boolean; decodeBitStrings?: boolean },
    ): Asn1;
  }
  namespace util {
    function bytesFromIP(ip: string): Bytes | null;
  }
}
