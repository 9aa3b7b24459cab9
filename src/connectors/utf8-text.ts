/**
 * A runtime page's bytes as a string. V8's UTF-8 decoder (what `Buffer#toString('utf8')` and
 * TextDecoder use on Node 20) read a 112 KB page of customers, most of whose records hold a
 * non-ASCII name, in about 330 µs here; ICU's transcoder to UTF-16 and a UTF-16 string from that
 * took about 65 µs for the same string, and an all-ASCII page taken as Latin-1 about 9 µs
 * (bench/README.md, session 38). Pure: bytes in, string out.
 */
import { isAscii, isUtf8, transcode } from 'node:buffer';

/** Whether this Node has ICU's transcoder (a build without Intl exports no `transcode`, and calling it throws). */
const HAS_TRANSCODE = ((): boolean => {
  try {
    return transcode(Buffer.from('é'), 'utf8', 'utf16le').toString('utf16le') === 'é';
  } catch {
    return false;
  }
})();

/**
 * `bytes` decoded as UTF-8, the same string `bytes.toString('utf8')` gives, and whether they
 * were valid UTF-8. Invalid bytes go through V8's decoder, whose replacement characters are
 * the ones the rest of the product has always stored for them.
 */
export function utf8Text(bytes: Buffer): { text: string; valid: boolean } {
  if (isAscii(bytes)) return { text: bytes.toString('latin1'), valid: true };
  if (!isUtf8(bytes)) return { text: bytes.toString('utf8'), valid: false };
  return { text: HAS_TRANSCODE ? transcode(bytes, 'utf8', 'utf16le').toString('utf16le') : bytes.toString('utf8'), valid: true };
}
