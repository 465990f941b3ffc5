import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { intParam, parseListQuery } from '../../../../apiserver/endpoints/handlers/query.js';
import { isApiError } from '../../../../apiserver/api/status.js';

const q = (s: string) => new URLSearchParams(s);

describe('integer query options, as Go’s strconv.ParseInt reads them', () => {
  it('takes a sign, leading zeros and the whole int64 range; the first of several values counts', () => {
    assert.equal(intParam(q('limit=%2B5'), 'limit'), 5);
    assert.equal(intParam(q('limit=005'), 'limit'), 5);
    assert.equal(intParam(q('g=-9223372036854775808'), 'g'), Number(-(2n ** 63n)));
    assert.equal(intParam(q('limit=9223372036854775807'), 'limit'), Number(2n ** 63n - 1n));
    assert.equal(intParam(q('limit=1&limit=x'), 'limit'), 1);
    assert.equal(intParam(q('limit='), 'limit'), undefined);
  });

  it('answers anything else with Kubernetes’ 400 words', () => {
    const cases: [string, string][] = [
      ['limit=9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
      ['limit=-9223372036854775809', 'strconv.ParseInt: parsing "-9223372036854775809": value out of range'],
      ['limit=1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
      ['limit=0x10', 'strconv.ParseInt: parsing "0x10": invalid syntax'],
      ['limit=%205', 'strconv.ParseInt: parsing " 5": invalid syntax'],
      ['limit=x&limit=1', 'strconv.ParseInt: parsing "x": invalid syntax'],
    ];
    for (const [query, message] of cases) {
      assert.throws(
        () => parseListQuery(q(query)),
        (e) => isApiError(e, 'BadRequest') && (e as Error).message === message,
        query,
      );
    }
    assert.throws(
      () => parseListQuery(q('timeoutSeconds=99999999999999999999')),
      (e) => isApiError(e, 'BadRequest'),
    );
  });
});
