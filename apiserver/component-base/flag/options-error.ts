/** A bad command line: the message is one line, worded like pflag's; the binaries exit 2 with it. */
export class OptionsError extends Error {
  override name = 'OptionsError';
}
