import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  QUANTITY_FORMAT_ERROR,
  QUANTITY_SUFFIX_ERROR,
  canonicalQuantityText,
  compareQuantities,
  formatQuantity,
  parseQuantity,
  quantityFrom,
  quantitySign,
  scaledValue,
} from '../../../apiserver/api/quantity.js';

const q = parseQuantity;

describe('parseQuantity', () => {
  it('reads decimal SI, binary SI and decimal exponents exactly', () => {
    assert.deepEqual(q('1Gi'), { unscaled: 1073741824n, scale: 0, format: 'BinarySI' });
    assert.deepEqual(q('500m'), { unscaled: 500n, scale: -3, format: 'DecimalSI' });
    assert.deepEqual(q('1.5'), { unscaled: 15n, scale: -1, format: 'DecimalSI' });
    assert.deepEqual(q('1e3'), { unscaled: 1n, scale: 3, format: 'DecimalExponent' });
    assert.deepEqual(q('12E-3'), { unscaled: 12n, scale: -3, format: 'DecimalExponent' });
    assert.deepEqual(q('-0.5Ki'), { unscaled: -5120n, scale: -1, format: 'BinarySI' });
    assert.deepEqual(q('+2M'), { unscaled: 2n, scale: 6, format: 'DecimalSI' });
    assert.deepEqual(q('0'), { unscaled: 0n, scale: 0, format: 'DecimalSI' });
  });

  it('accepts what Kubernetes accepts leniently: a bare sign or dot, "1.G", a bare suffix', () => {
    assert.equal(quantitySign(q('-')), 0);
    assert.equal(quantitySign(q('.')), 0);
    assert.equal(quantitySign(q('Gi')), 0);
    assert.equal(compareQuantities(q('1.G'), q('1G')), 0);
    assert.equal(compareQuantities(q('5.'), q('5')), 0);
  });

  it('rounds anything finer than a nano up, and caps binary quantities at int64', () => {
    assert.deepEqual(q('0.1n'), { unscaled: 1n, scale: -9, format: 'DecimalSI' });
    assert.deepEqual(q('1e-10'), { unscaled: 1n, scale: -9, format: 'DecimalExponent' });
    assert.deepEqual(q('-1.0000000001'), { unscaled: -1000000001n, scale: -9, format: 'DecimalSI' });
    assert.equal(q('1024Ei').unscaled, 2n ** 63n - 1n);
  });

  it('keeps an int32 exponent as Go converts it (wrapping)', () => {
    assert.equal(compareQuantities(q('1e4294967296'), q('1')), 0);
    assert.equal(formatQuantity(q('1e999999999')), '1e999999999');
  });

  it('rejects malformed quantities with Kubernetes’ messages', () => {
    for (const s of ['', ' 1', '1 ', '1.1.M', '1+1.0M', '0.1am', 'aoeu', '1e5e5']) {
      assert.throws(() => q(s), { name: 'QuantityParseError', message: QUANTITY_FORMAT_ERROR }, s);
    }
    for (const s of ['0.1mi', '.5i', '1i', '-3.01i', '-3.01e-', '1e', '1Ki5', '1e99999999999999999999']) {
      assert.throws(() => q(s), { name: 'QuantityParseError', message: QUANTITY_SUFFIX_ERROR }, s);
    }
  });

  it('takes JSON values: trimmed strings and numbers', () => {
    assert.equal(compareQuantities(quantityFrom(' 2Gi '), q('2Gi')), 0);
    assert.equal(compareQuantities(quantityFrom(1.5), q('1500m')), 0);
    assert.equal(compareQuantities(quantityFrom(1e21), q('1e21')), 0);
    assert.throws(() => quantityFrom(true), { message: QUANTITY_FORMAT_ERROR });
    assert.throws(() => quantityFrom(null), { message: QUANTITY_FORMAT_ERROR });
  });
});

describe('compareQuantities', () => {
  it('compares by value across formats', () => {
    assert.equal(compareQuantities(q('1Gi'), q('1073741824')), 0);
    assert.equal(compareQuantities(q('1024Mi'), q('1Gi')), 0);
    assert.equal(compareQuantities(q('1G'), q('1Gi')), -1);
    assert.equal(compareQuantities(q('1Gi'), q('1G')), 1);
    assert.equal(compareQuantities(q('100m'), q('0.1')), 0);
    assert.equal(compareQuantities(q('999m'), q('1')), -1);
  });

  it('orders signs and magnitudes, huge exponents included', () => {
    assert.equal(compareQuantities(q('-1'), q('1m')), -1);
    assert.equal(compareQuantities(q('-2'), q('-1')), -1);
    assert.equal(compareQuantities(q('0'), q('-0')), 0);
    assert.equal(compareQuantities(q('1e999999999'), q('1Ei')), 1);
    assert.equal(compareQuantities(q('1e-9'), q('0')), 1);
  });
});

describe('formatQuantity (Quantity.String)', () => {
  it('prints decimal quantities with an exponent that is a multiple of 3', () => {
    const cases: [string, string][] = [
      ['1000', '1k'],
      ['1500', '1500'],
      ['1.5', '1500m'],
      ['0.1', '100m'],
      ['100m', '100m'],
      ['-0.5', '-500m'],
      ['1.0', '1'],
      ['0.000', '0'],
      ['2E', '2E'],
      ['1e3', '1e3'],
      ['1.5e3', '1500'],
      ['12e-3', '12e-3'],
      ['1000E', '1e21'],
    ];
    for (const [input, canonical] of cases) assert.equal(formatQuantity(q(input)), canonical, input);
  });

  it('prints binary quantities with the largest exact power of 1024, decimally when smaller or inexact', () => {
    const cases: [string, string][] = [
      ['1Gi', '1Gi'],
      ['0.5Gi', '512Mi'],
      ['1536Mi', '1536Mi'],
      ['1.5Ki', '1536'],
      ['0.5Ki', '512'],
      ['-2Ki', '-2Ki'],
      ['1.0000001Ki', '1024000102400n'],
    ];
    for (const [input, canonical] of cases) assert.equal(formatQuantity(q(input)), canonical, input);
  });

  it('canonicalQuantityText leaves non-quantities as they are', () => {
    assert.equal(canonicalQuantityText('2048Mi'), '2Gi');
    assert.equal(canonicalQuantityText('lots'), 'lots');
  });
});

describe('scaledValue', () => {
  it('rounds away from zero (Value, MilliValue) and clamps to int64', () => {
    assert.equal(scaledValue(q('1.5'), 0), 2n);
    assert.equal(scaledValue(q('-0.5'), 0), -1n);
    assert.equal(scaledValue(q('1.5'), -3), 1500n);
    assert.equal(scaledValue(q('1n'), -3), 1n);
    assert.equal(scaledValue(q('1Ki'), 3), 2n);
    assert.equal(scaledValue(q('1e30'), 0), 2n ** 63n - 1n);
    assert.equal(scaledValue(q('-1e30'), 0), -(2n ** 63n));
    assert.equal(scaledValue(q('0'), 0), 0n);
  });
});
