/**
 * Booleans in a URL query, read as Kubernetes reads them.
 *
 * Options structs (ListOptions, DeleteOptions, PatchOptions, PodLogOptions, PodExecOptions…) are
 * decoded from the query by apimachinery's Convert_Slice_string_To_bool: only `0` and `false` (any
 * case) are false, every other value — `True`, `yes`, the empty string — is true; the first value
 * counts. `pretty` alone is read with strconv.ParseBool, an unparsable value being false.
 */

/** The first value of `name` as an options boolean; undefined when absent. */
export function queryBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}

const PARSE_BOOL: Record<string, boolean> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/** Go's strconv.ParseBool; undefined when the text is not one of its twelve spellings. */
export function parseBool(text: string): boolean | undefined {
  return Object.hasOwn(PARSE_BOOL, text) ? PARSE_BOOL[text] : undefined;
}

/** `?pretty=`: strconv.ParseBool of a non-empty value, anything else false. */
export function queryPretty(q: URLSearchParams): boolean {
  return parseBool(q.get('pretty') ?? '') ?? false;
}
