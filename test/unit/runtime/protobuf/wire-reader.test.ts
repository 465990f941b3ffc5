import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { ProtobufError, WireReader } from '../../../../apiserver/runtime/protobuf/wire-reader.js';

const bytes = (write: (w: protobuf.Writer) => void) => {
  const w = protobuf.Writer.create();
  write(w);
  return w.finish();
};

describe('WireReader', () => {
  it('reads varints, negative int32s (sign-extended to 10 bytes) and int64s exactly', () => {
    const r = new WireReader(
      bytes((w) =>
        w
          .uint32(300)
          .int32(-1)
          .int32(-2147483648)
          .int64(-5)
          .int64(2 ** 40 + 3)
          .int64(0),
      ),
    );
    assert.equal(r.varint(), 300);
    assert.equal(r.int32(), -1);
    assert.equal(r.int32(), -2147483648);
    assert.equal(r.int64(), -5);
    assert.equal(r.int64(), 2 ** 40 + 3);
    assert.equal(r.int64(), 0);
    assert.ok(r.done());
  });

  it('refuses a varint longer than 10 bytes or beyond 64 bits, and a truncated one', () => {
    assert.throws(() => new WireReader(Buffer.from(Array(11).fill(0xff))).varint(), ProtobufError);
    assert.throws(() => new WireReader(Buffer.from([...Array(9).fill(0xff), 0x02])).varint(), /overflows 64 bits/);
    assert.throws(() => new WireReader(Buffer.from([0x80, 0x80])).varint(), /truncated varint/);
  });

  it('checks a length against the bytes left before slicing anything', () => {
    const r = new WireReader(Buffer.from([0x80, 0x80, 0x80, 0x32, 0x61])); // length 100 MiB, one byte left
    assert.throws(() => r.bytes(), /length 104857600 exceeds the 1 bytes left/);
  });

  it('refuses groups and field number 0, skips the other wire types', () => {
    assert.throws(() => new WireReader(Buffer.from([0x0b])).skip(3), /unsupported wire type 3/);
    assert.throws(() => new WireReader(Buffer.from([0x02])).tag(), /invalid field number 0/);
    const r = new WireReader(bytes((w) => w.uint32(9).fixed64(1).uint32(13).fixed32(1).uint32(8).uint32(5)));
    r.skip(r.tag()[1]);
    r.skip(r.tag()[1]);
    assert.deepEqual(r.tag(), [1, 0]);
    assert.equal(r.varint(), 5);
  });
});
